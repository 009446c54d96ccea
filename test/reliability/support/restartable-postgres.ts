import { ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmodSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { freePort } from './app-process';

const HELPER = join(__dirname, 'postgres-server.cjs');
const ROOT = resolve(__dirname, '..', '..', '..');

/**
 * A PostgreSQL server of the test's own (never the machine's shared one) that can be stopped
 * and started again on the same port and data, driven through the helper child process.
 */
export class RestartablePostgres {
  private readonly answers: string[] = [];
  private readonly waiting: Array<(line: string) => void> = [];

  private constructor(
    private readonly helper: ChildProcess,
    private readonly folder: string,
    /** URL of the server's `postgres` database. */
    readonly url: string,
  ) {
    createInterface({ input: helper.stdout! }).on('line', (line) => {
      const next = this.waiting.shift();
      if (next) next(line);
      else this.answers.push(line);
    });
  }

  static async start(): Promise<RestartablePostgres> {
    const folder = mkdtempSync(join(tmpdir(), 'dm-reliability-restart-pg-'));
    // When run as root the server runs as a separate system user, which must reach the folder.
    chmodSync(folder, 0o755);
    const port = await freePort();
    const password = randomBytes(12).toString('hex');
    const helper = spawn(process.execPath, [HELPER, join(folder, 'postgres'), String(port), password], {
      cwd: ROOT,
      stdio: ['pipe', 'pipe', 'inherit'],
    });
    const server = new RestartablePostgres(
      helper,
      folder,
      `postgres://postgres:${password}@127.0.0.1:${port}/postgres`,
    );
    try {
      await server.answer('started');
    } catch (error) {
      await server.destroy();
      throw error;
    }
    return server;
  }

  /** Fast shutdown: open connections are terminated, new ones refused. */
  async stop(): Promise<void> {
    this.helper.stdin!.write('stop\n');
    await this.answer('stopped');
  }

  async restart(): Promise<void> {
    this.helper.stdin!.write('start\n');
    await this.answer('started');
  }

  /**
   * Freezes every process of the server (SIGSTOP): connections stay open and nothing answers,
   * like a database host that stalls. thaw() resumes it.
   */
  freeze(): void {
    for (const pid of this.serverProcesses()) process.kill(pid, 'SIGSTOP');
  }

  thaw(): void {
    for (const pid of this.serverProcesses().reverse()) process.kill(pid, 'SIGCONT');
  }

  /** The postmaster first (so it forks nothing more), then its children: backends and workers. */
  private serverProcesses(): number[] {
    const postmaster = Number(
      readFileSync(join(this.folder, 'postgres', 'postmaster.pid'), 'utf8').split('\n')[0],
    );
    const children = readdirSync('/proc')
      .filter((entry) => /^\d+$/.test(entry))
      .filter((entry) => {
        try {
          // /proc/<pid>/stat: "pid (name) state ppid ..."; the name may hold spaces, so split after it.
          const stat = readFileSync(join('/proc', entry, 'stat'), 'utf8');
          return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) === postmaster;
        } catch {
          return false;
        }
      })
      .map(Number);
    return [postmaster, ...children];
  }

  /** Stops the server, ends the helper and removes the data. Safe after a failure. */
  async destroy(): Promise<void> {
    if (this.helper.exitCode === null && this.helper.signalCode === null) {
      const exited = new Promise((done) => this.helper.once('exit', done));
      this.helper.stdin!.end();
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([exited, new Promise((done) => (timer = setTimeout(done, 30_000)))]);
      clearTimeout(timer);
      if (this.helper.exitCode === null) this.helper.kill('SIGKILL');
    }
    rmSync(this.folder, { recursive: true, force: true });
  }

  /**
   * The helper's next line. No clock of its own: on a starved machine starting a server may take
   * long, and the caller's hook or test bounds the wait; a helper that died fails it at once.
   */
  private answer(expected: string): Promise<void> {
    return new Promise((done, fail) => {
      const died = (code: number | null, signal: string | null) =>
        fail(new Error(`PostgreSQL helper exited (${signal ?? code}) before answering "${expected}"`));
      this.helper.once('exit', died);
      const accept = (line: string) => {
        this.helper.off('exit', died);
        if (line === expected) done();
        else fail(new Error(`PostgreSQL helper answered "${line}", expected "${expected}"`));
      };
      const early = this.answers.shift();
      if (early !== undefined) accept(early);
      else this.waiting.push(accept);
    });
  }
}
