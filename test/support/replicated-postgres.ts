import { execFile } from 'node:child_process';
import { chmodSync, chownSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
/** The machine's PostgreSQL 15 binaries (Debian's postgresql-15 package). */
const BIN = '/usr/lib/postgresql/15/bin';

/** A loopback port nobody listens on right now. */
export function freeLoopbackPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** PostgreSQL refuses to run as root: as root, every binary runs as the postgres system user. */
function asServerUser(binary: string, args: string[]) {
  const command = join(BIN, binary);
  return process.getuid?.() === 0
    ? run('runuser', ['-u', 'postgres', '--', command, ...args])
    : run(command, args);
}

/**
 * A throw-away primary and a streaming replica of it (pg_basebackup -R), each on a free loopback
 * port with trust authentication, in a temporary folder removed by destroy(). The replica can be
 * stopped and started again to play an outage.
 */
export class ReplicatedPostgres {
  private constructor(
    private readonly folder: string,
    readonly primaryPort: number,
    readonly replicaPort: number,
  ) {}

  get primaryUrl(): string {
    return `postgres://postgres@127.0.0.1:${this.primaryPort}/postgres`;
  }

  get replicaUrl(): string {
    return `postgres://postgres@127.0.0.1:${this.replicaPort}/postgres`;
  }

  /** URL of database `name` on the primary (port) or the replica. */
  urlOf(port: number, name: string): string {
    return `postgres://postgres@127.0.0.1:${port}/${name}`;
  }

  static async start(): Promise<ReplicatedPostgres> {
    const folder = mkdtempSync(join(tmpdir(), 'dm-replicated-pg-'));
    chmodSync(folder, 0o755);
    if (process.getuid?.() === 0) {
      const { stdout } = await run('id', ['-u', 'postgres']);
      const { stdout: group } = await run('id', ['-g', 'postgres']);
      chownSync(folder, Number(stdout), Number(group));
    }
    const cluster = new ReplicatedPostgres(folder, await freeLoopbackPort(), await freeLoopbackPort());
    try {
      await asServerUser('initdb', [
        '-D',
        cluster.dataDir('primary'),
        '-U',
        'postgres',
        '--auth=trust',
        '-E',
        'UTF8',
      ]);
      await cluster.startServer('primary');
      await asServerUser('pg_basebackup', [
        '-h',
        '127.0.0.1',
        '-p',
        String(cluster.primaryPort),
        '-U',
        'postgres',
        '-D',
        cluster.dataDir('replica'),
        '-R',
        '-X',
        'stream',
      ]);
      await cluster.startServer('replica');
    } catch (error) {
      await cluster.destroy();
      throw error;
    }
    return cluster;
  }

  /** Fast shutdown of the replica: its connections end, new ones are refused. */
  stopReplica(): Promise<unknown> {
    return asServerUser('pg_ctl', ['-D', this.dataDir('replica'), '-m', 'fast', '-w', 'stop']);
  }

  startReplica(): Promise<unknown> {
    return this.startServer('replica');
  }

  async destroy(): Promise<void> {
    for (const server of ['replica', 'primary'] as const)
      await asServerUser('pg_ctl', ['-D', this.dataDir(server), '-m', 'immediate', '-w', 'stop']).catch(
        () => undefined,
      );
    rmSync(this.folder, { recursive: true, force: true });
  }

  private dataDir(server: 'primary' | 'replica'): string {
    return join(this.folder, server);
  }

  private startServer(server: 'primary' | 'replica'): Promise<unknown> {
    const port = server === 'primary' ? this.primaryPort : this.replicaPort;
    const log = join(this.folder, `${server}.log`);
    writeFileSync(log, '');
    chmodSync(log, 0o666);
    // fsync off: the data is thrown away; sockets in the folder, not the machine's shared one.
    const options = `-p ${port} -c listen_addresses=127.0.0.1 -k ${this.folder} -c fsync=off -c max_connections=200`;
    return asServerUser('pg_ctl', ['-D', this.dataDir(server), '-l', log, '-o', options, '-w', 'start']);
  }
}
