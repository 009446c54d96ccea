import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { minVersion, satisfies } from 'semver';

const ROOT = resolve(__dirname, '..', '..');
const readJson = (file: string) => JSON.parse(readFileSync(join(ROOT, file), 'utf8'));

describe('the toolchain keeps the promises of the README', () => {
  it('installs only packages that support the oldest Node the project promises (npm ci warns EBADENGINE otherwise)', () => {
    const promised = minVersion(readJson('package.json').engines.node)!.version;
    const packages = readJson('package-lock.json').packages as Record<
      string,
      { version?: string; engines?: { node?: string } | string[] }
    >;
    const refusing = Object.entries(packages)
      .filter(([path, entry]) => {
        const node = Array.isArray(entry.engines) ? undefined : entry.engines?.node;
        return path !== '' && node !== undefined && !satisfies(promised, node);
      })
      .map(([path, entry]) => `${path}@${entry.version} needs node ${JSON.stringify(entry.engines)}`);
    expect(refusing).toEqual([]);
  });

  it('loads the Vite config without a warning and builds with warnings and errors only', () => {
    // Vite is ES modules only: asked from a plain Node process, as `vite build` asks it.
    const script = `
      const { loadConfigFromFile } = await import('vite');
      const warnings = [];
      const logger = { info() {}, warn: (message) => warnings.push(message), warnOnce: (message) => warnings.push(message),
        error: (message) => warnings.push(message), clearScreen() {}, hasErrorLogged: () => false, hasWarned: false };
      const loaded = await loadConfigFromFile({ command: 'build', mode: 'production' }, 'frontend/vite.config.mts',
        process.cwd(), 'info', logger);
      const { logLevel, build } = loaded.config;
      console.log(JSON.stringify({ warnings, logLevel, reportCompressedSize: build.reportCompressedSize }));
    `;
    const output = execFileSync(process.execPath, ['--input-type=module', '--eval', script], {
      cwd: ROOT,
      encoding: 'utf8',
    });
    expect(JSON.parse(output)).toEqual({ warnings: [], logLevel: 'warn', reportCompressedSize: false });
  });
});
