import { spawn } from 'node:child_process';
import { join, resolve } from 'node:path';
import { AppProcess, freePort } from './support/app-process';

const MAIN = join(resolve(__dirname, '..', '..'), 'dist', 'src', 'main.js');

describe('reliability: one app per data folder', () => {
  let first: AppProcess | undefined;

  afterAll(async () => {
    await first?.stop();
  });

  it('refuses a second start in the same folder, naming the running one, and leaves the first serving', async () => {
    first = await AppProcess.start({ name: 'data-dir-lock' });
    const env: NodeJS.ProcessEnv = { ...process.env };
    delete env.DATABASE_URL;
    const second = spawn(process.execPath, [MAIN], {
      env: {
        ...env,
        DATA_DIR: first.dataDir,
        PORT: String(await freePort()),
        SEED: 'false',
        SESSION_SECRET: 'reliability-session-secret-0123456789abcdef',
        ENCRYPTION_KEY: 'f0e1d2c3b4a5968778695a4b3c2d1e0ff0e1d2c3b4a5968778695a4b3c2d1e0f',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    second.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    second.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const code = await new Promise<number | null>((done) => second.once('exit', done));
    expect(code).toBe(73);
    expect(output).toContain(`pid ${first.pid}, port ${first.port}`);
    const health = await fetch(`${first.baseUrl}/api/health`);
    expect(health.status).toBe(200);
  });
});
