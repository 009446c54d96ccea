import { ChildProcess, spawn } from 'node:child_process';
import {
  chmodSync,
  createWriteStream,
  existsSync,
  mkdirSync,
  mkdtempSync,
  rmSync,
  WriteStream,
} from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const ROOT = resolve(__dirname, '..', '..', '..');
export const RELIABILITY_ARTIFACTS = join(ROOT, 'test-artifacts', 'reliability');
const MAIN = join(ROOT, 'dist', 'src', 'main.js');
const START_TIMEOUT_MS = 90_000;
const STOP_TIMEOUT_MS = 20_000;

/** Fixed secrets: every process of one test (and every restart) must read the same sessions and keys. */
export const SECRETS = {
  SESSION_SECRET: 'reliability-session-secret-0123456789abcdef',
  ENCRYPTION_KEY: 'f0e1d2c3b4a5968778695a4b3c2d1e0ff0e1d2c3b4a5968778695a4b3c2d1e0f',
};

const running = new Set<AppProcess>();

// A last resort should the test runner itself exit while an app is still up.
process.once('exit', () => {
  for (const app of running) app.child?.kill('SIGKILL');
});

export async function freePort(): Promise<number> {
  return new Promise((done, fail) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => done(port));
    });
    server.on('error', fail);
  });
}

export interface AppProcessOptions {
  /** Names the log file under test-artifacts/reliability/. */
  name: string;
  /** Unset: the app starts its embedded PostgreSQL under its data folder. */
  databaseUrl?: string;
  /** Extra environment (SCHEDULER_ENABLED, TRUST_PROXY, ...); undefined removes a variable. */
  env?: Record<string, string | undefined>;
  /** Start through `npm start`, as the README does, instead of node directly; signals then go to npm. */
  viaNpm?: boolean;
  /** PROCESS_ROLE=worker: no API; its port is the worker's health check (GET /health). */
  worker?: boolean;
  /** A data folder prepared by the test (a restored backup); by default a new empty one. */
  dataDir?: string;
}

/**
 * The built API (dist/src/main.js) as a real process on a port of its own: started, killed with
 * SIGKILL and started again on the same port, database and secrets, like a crash and a restart.
 */
export class AppProcess {
  child?: ChildProcess;
  readonly baseUrl: string;
  readonly dataDir: string;
  /** Every line the process wrote to stdout or stderr, across restarts. */
  readonly output: string[] = [];
  private readonly log: WriteStream;

  private constructor(
    private readonly options: AppProcessOptions,
    readonly port: number,
  ) {
    this.baseUrl = `http://127.0.0.1:${port}`;
    this.dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), 'dm-reliability-data-'));
    // An embedded PostgreSQL started as root runs as a system user of its own, which must reach the folder.
    if (!options.databaseUrl) chmodSync(this.dataDir, 0o755);
    mkdirSync(RELIABILITY_ARTIFACTS, { recursive: true });
    this.log = createWriteStream(join(RELIABILITY_ARTIFACTS, `${options.name}.log`), { flags: 'w' });
  }

  /** Starts the app and waits until /api/health answers 200 (migrations run at start). */
  static async start(options: AppProcessOptions): Promise<AppProcess> {
    if (!existsSync(MAIN)) throw new Error('Build the API first: npm run build:api');
    const app = new AppProcess(options, await freePort());
    running.add(app);
    await app.launch();
    return app;
  }

  get pid(): number | undefined {
    return this.child?.pid;
  }

  get isRunning(): boolean {
    return !!this.child && this.child.exitCode === null && this.child.signalCode === null;
  }

  /** Starts the process again after a kill or stop. */
  async restart(): Promise<void> {
    if (this.isRunning) throw new Error(`${this.options.name} is still running`);
    await this.launch();
  }

  /** SIGKILL: no shutdown hook runs, connections drop mid-statement. */
  async kill(): Promise<void> {
    await this.signalAndWait('SIGKILL', STOP_TIMEOUT_MS);
  }

  /** Graceful stop (SIGTERM), then SIGKILL if it hangs; removes the data folder. Safe to call twice. */
  async stop(): Promise<void> {
    if (this.isRunning) {
      const stopped = await this.signalAndWait('SIGTERM', STOP_TIMEOUT_MS);
      if (!stopped) await this.signalAndWait('SIGKILL', STOP_TIMEOUT_MS);
    }
    running.delete(this);
    await new Promise<void>((done) => this.log.end(done));
    rmSync(this.dataDir, { recursive: true, force: true });
  }

  private async launch(): Promise<void> {
    this.log.write(`\n==== start ${new Date().toISOString()}\n`);
    const [command, args] = this.options.viaNpm ? ['npm', ['start']] : [process.execPath, [MAIN]];
    const environment: Record<string, string | undefined> = {
      ...process.env,
      NODE_ENV: 'test',
      PORT: String(this.port),
      DATABASE_URL: this.options.databaseUrl,
      APP_ORIGIN: this.baseUrl,
      DATA_DIR: this.dataDir,
      SEED: 'false',
      LOG_LEVEL: 'warn',
      SCHEDULER_ENABLED: 'false',
      CONNECTOR_ALLOW_PRIVATE_NETWORKS: 'true',
      ...SECRETS,
      ...(this.options.worker ? { PROCESS_ROLE: 'worker', WORKER_HEALTH_PORT: String(this.port) } : {}),
      ...this.options.env,
    };
    const env = Object.fromEntries(
      Object.entries(environment).filter((entry): entry is [string, string] => entry[1] !== undefined),
    );
    const child = spawn(command, args, { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout?.pipe(this.log, { end: false });
    child.stderr?.pipe(this.log, { end: false });
    for (const stream of [child.stdout, child.stderr]) {
      let partial = '';
      stream?.setEncoding('utf8').on('data', (chunk: string) => {
        const lines = (partial + chunk).split('\n');
        partial = lines.pop() ?? '';
        this.output.push(...lines);
      });
    }
    this.child = child;
    await this.waitForHealth();
  }

  private async waitForHealth(): Promise<void> {
    const deadline = Date.now() + START_TIMEOUT_MS;
    while (Date.now() < deadline) {
      if (!this.isRunning) {
        throw new Error(`${this.options.name} exited during start; see ${RELIABILITY_ARTIFACTS}`);
      }
      try {
        const path = this.options.worker ? '/health' : '/api/health';
        const response = await fetch(`${this.baseUrl}${path}`, { signal: AbortSignal.timeout(5000) });
        if (response.ok) return;
      } catch {
        // not listening yet
      }
      await new Promise((wait) => setTimeout(wait, 200));
    }
    throw new Error(`${this.options.name} did not become healthy in time`);
  }

  /** Sends the signal and waits (bounded) for the exit; answers whether the process is gone. */
  private async signalAndWait(signal: NodeJS.Signals, timeoutMs: number): Promise<boolean> {
    const child = this.child;
    if (!child || !this.isRunning) return true;
    const exited = new Promise<void>((done) => child.once('exit', () => done()));
    child.kill(signal);
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([exited, new Promise((done) => (timer = setTimeout(done, timeoutMs)))]);
    clearTimeout(timer);
    return !this.isRunning;
  }
}

/** Stops every app process still running (afterAll, also after a failed test). */
export async function stopAllApps(): Promise<void> {
  await Promise.all([...running].map((app) => app.stop().catch(() => undefined)));
}
