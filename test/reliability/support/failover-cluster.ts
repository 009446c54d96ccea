import { execFile, execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
const SCRIPT = resolve(__dirname, '..', '..', '..', 'scripts', 'failover-cluster.sh');
/** What the script needs; CI installs them (.ci/run): a test without them fails, it does not skip. */
const TOOLS = ['patroni', 'etcd', 'etcdctl', 'haproxy', '/usr/lib/postgresql/15/bin/postgres'];

/** Short Patroni timings: the leader's key lapses 12 s after its last renewal, checked every second. */
const TEST_TIMINGS = {
  PATRONI_TTL: '12',
  PATRONI_LOOP_WAIT: '1',
  PATRONI_RETRY_TIMEOUT: '5',
  CLUSTER_FSYNC: 'off',
};

function parseEnv(text: string): Record<string, string> {
  return Object.fromEntries(
    text
      .split('\n')
      .filter((line) => line.includes('='))
      .map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)]),
  );
}

/**
 * scripts/failover-cluster.sh in a temporary folder: three PostgreSQL 15 nodes under Patroni, a
 * three-member etcd and HAProxy (writes to the leader, reads to the replicas). destroy() stops
 * everything even when the test failed; so does the test process's exit, as a last resort.
 */
export class FailoverCluster {
  private stopped = false;
  private readonly onExit = () => this.stopNow();

  private constructor(
    private readonly folder: string,
    readonly env: Record<string, string>,
  ) {
    process.once('exit', this.onExit);
  }

  static async start(): Promise<FailoverCluster> {
    for (const tool of TOOLS) {
      const found = await run('sh', ['-c', `command -v ${tool}`]).then(
        () => true,
        () => false,
      );
      if (!found)
        throw new Error(`${tool} is missing: apt-get install patroni etcd-server etcd-client haproxy`);
    }
    const folder = mkdtempSync(join(tmpdir(), 'dm-failover-'));
    try {
      await run(SCRIPT, ['up', folder], { env: { ...process.env, ...TEST_TIMINGS } });
    } catch (error) {
      execFileSync(SCRIPT, ['down', folder], { stdio: 'ignore' });
      rmSync(folder, { recursive: true, force: true });
      throw error;
    }
    return new FailoverCluster(folder, parseEnv(readFileSync(join(folder, 'cluster.env'), 'utf8')));
  }

  /** HAProxy's write port: always the current leader. */
  get writeUrl(): string {
    return this.env.DATABASE_URL;
  }

  /** HAProxy's read port: the replicas. */
  get readUrl(): string {
    return this.env.DATABASE_READ_URL;
  }

  /** The current leader's name (pg1..pg3), or undefined while there is none. */
  async leader(): Promise<string | undefined> {
    return run(SCRIPT, ['leader', this.folder]).then(
      ({ stdout }) => stdout.trim() || undefined,
      () => undefined,
    );
  }

  /** Patroni's view of the cluster (GET /cluster on a node that answers). */
  async members(): Promise<Array<{ name: string; role: string; state: string }>> {
    for (const node of ['PG1', 'PG2', 'PG3']) {
      try {
        const response = await fetch(`${this.env[`PATRONI_${node}`]}/cluster`, {
          signal: AbortSignal.timeout(2000),
        });
        return ((await response.json()) as { members: Array<{ name: string; role: string; state: string }> })
          .members;
      } catch {
        // that node is down: ask the next
      }
    }
    return [];
  }

  /** kill -9 a node's Patroni and PostgreSQL together, as when its machine dies. */
  async killNode(name: string): Promise<void> {
    await run(SCRIPT, ['kill-node', this.folder, name]);
  }

  async startNode(name: string): Promise<void> {
    await run(SCRIPT, ['start-node', this.folder, name]);
  }

  async destroy(): Promise<void> {
    if (this.stopped) return;
    this.stopped = true;
    process.removeListener('exit', this.onExit);
    await run(SCRIPT, ['down', this.folder]).catch(() => undefined);
    rmSync(this.folder, { recursive: true, force: true });
  }

  private stopNow(): void {
    if (this.stopped) return;
    this.stopped = true;
    execFileSync(SCRIPT, ['down', this.folder], { stdio: 'ignore' });
    rmSync(this.folder, { recursive: true, force: true });
  }
}
