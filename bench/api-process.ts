import { ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { createWriteStream, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface RunningProcess {
  origin: string;
  pid: number;
  stop(): Promise<void>;
}

export async function freePort(): Promise<number> {
  const server = createServer().listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as { port: number };
  server.close();
  await once(server, 'close');
  return port;
}

async function waitUntilHealthy(origin: string, child: ChildProcess, logFile: string): Promise<void> {
  const deadline = Date.now() + 90_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) break;
    try {
      const response = await fetch(`${origin}/api/health`);
      if (response.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  const log = readFileSync(logFile, 'utf8').split('\n').slice(-30).join('\n');
  throw new Error(`The process at ${origin} did not become healthy. Last log lines:\n${log}`);
}

async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = once(child, 'exit');
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
  await exited;
  clearTimeout(timer);
}

/** Starts a Node script as a child process with its output in `logFile`; waits for /api/health. */
export async function startNode(
  script: string,
  port: number,
  env: Record<string, string>,
  logFile: string,
): Promise<RunningProcess> {
  const origin = `http://127.0.0.1:${port}`;
  const log = createWriteStream(logFile);
  const child = spawn(process.execPath, [script], {
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', PORT: String(port), ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.pipe(log);
  child.stderr!.pipe(log);
  try {
    await waitUntilHealthy(origin, child, logFile);
  } catch (error) {
    await stopChild(child);
    throw error;
  }
  return { origin, pid: child.pid!, stop: () => stopChild(child) };
}

const BENCH_SESSION_SECRET = randomBytes(32).toString('hex');

/**
 * The built API (dist/src/main.js) as a production-like child process: no seed, no scheduler,
 * warnings only, loopback connectors allowed for the local fake API. `port` restarts it where
 * the bench user's client already talks to; `env` adds settings (e.g. QUERY_DATABASE_URL).
 */
export async function startApi(
  databaseUrl: string,
  logFile: string,
  port?: number,
  env: Record<string, string> = {},
): Promise<RunningProcess> {
  const dataDir = mkdtempSync(join(tmpdir(), 'dm-bench-data-'));
  const webRoot = join(dataDir, 'web');
  mkdirSync(webRoot);
  writeFileSync(join(webRoot, 'index.html'), '<!doctype html><title>bench</title>');
  const listenOn = port ?? (await freePort());
  return startNode(
    'dist/src/main.js',
    listenOn,
    {
      DATABASE_URL: databaseUrl,
      APP_ORIGIN: `http://127.0.0.1:${listenOn}`,
      // One secret for every API process of the bench: a restarted API keeps the bench user's session.
      SESSION_SECRET: BENCH_SESSION_SECRET,
      SEED: 'false',
      LOG_LEVEL: 'warn',
      SCHEDULER_ENABLED: 'false',
      DATA_DIR: dataDir,
      WEB_ROOT: webRoot,
      CONNECTOR_ALLOW_PRIVATE_NETWORKS: 'true',
      // Run Now answers when the run ends, also for the longest runs measured (a million records).
      RUN_NOW_WAIT_SECONDS: '600',
      ...env,
    },
    logFile,
  );
}
