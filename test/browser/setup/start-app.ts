import { ChildProcess, spawn } from 'node:child_process';
import { createWriteStream, existsSync, mkdirSync, mkdtempSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { reapBeforeRun } from '../../setup/leftover-test-databases';
import { createTestDatabase, TestDatabase } from '../../setup/test-database';

declare global {
  var browserApp: { process: ChildProcess; database: TestDatabase } | undefined;
}

const ROOT = resolve(__dirname, '..', '..', '..');
export const ARTIFACTS = join(ROOT, 'test-artifacts');

async function freePort(): Promise<number> {
  return new Promise((done, fail) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => done(port));
    });
    server.on('error', fail);
  });
}

async function waitForHealth(url: string, child: ChildProcess, timeoutMs = 120_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null)
      throw new Error(`The app exited with code ${child.exitCode}; see test-artifacts/app.log`);
    try {
      const response = await fetch(`${url}/api/health`);
      if (response.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((wait) => setTimeout(wait, 250));
  }
  throw new Error('The app did not become healthy in time; see test-artifacts/app.log');
}

/** Starts the built app (dist/) with seed data on a throw-away database. */
export default async function startApp(): Promise<void> {
  // WEB_ROOT (as in the app's configuration) lets a run serve an SPA build kept elsewhere.
  const webRoot = resolve(process.env.WEB_ROOT ?? join(ROOT, 'frontend', 'dist'));
  if (!existsSync(join(ROOT, 'dist', 'src', 'main.js')) || !existsSync(join(webRoot, 'index.html'))) {
    throw new Error('Build the app first: npm run build (npm run test:e2e does it)');
  }
  mkdirSync(ARTIFACTS, { recursive: true });
  await reapBeforeRun(process.env.DATABASE_URL);
  const database = await createTestDatabase('dm_browser');
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const log = createWriteStream(join(ARTIFACTS, 'app.log'));
  const child = spawn(process.execPath, [join(ROOT, 'dist', 'src', 'main.js')], {
    cwd: ROOT,
    env: {
      ...process.env,
      NODE_ENV: 'test',
      PORT: String(port),
      DATABASE_URL: database.url,
      APP_ORIGIN: baseUrl,
      WEB_ROOT: webRoot,
      DATA_DIR: mkdtempSync(join(tmpdir(), 'dm-browser-data-')),
      SEED: 'true',
      LOG_LEVEL: 'warn',
      CONNECTOR_ALLOW_PRIVATE_NETWORKS: 'true',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.pipe(log);
  child.stderr?.pipe(log);
  globalThis.browserApp = { process: child, database };
  await waitForHealth(baseUrl, child);
  process.env.BROWSER_BASE_URL = baseUrl;
}
