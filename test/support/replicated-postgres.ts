import { execFile } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
/** The machine's PostgreSQL 15 binaries (Debian's postgresql-15 package). */
const BIN = '/usr/lib/postgresql/15/bin';

function onPath(name: string): boolean {
  return (process.env.PATH ?? '').split(':').some((folder) => folder && existsSync(join(folder, name)));
}

/**
 * What this machine lacks of the tools start() and lowerReplicaPriority() run, as a sentence, or
 * undefined when all are there (the benchmark skips its replica row without them).
 */
export function replicationToolsMissing(): string | undefined {
  const missing = [
    ...['initdb', 'pg_ctl', 'pg_basebackup', 'postgres']
      .map((name) => join(BIN, name))
      .filter((path) => !existsSync(path)),
    ...['chrt', 'taskset', 'renice', 'nproc', ...(process.getuid?.() === 0 ? ['runuser'] : [])].filter(
      (name) => !onPath(name),
    ),
  ];
  return missing.length > 0 ? `not found: ${missing.join(', ')}` : undefined;
}

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

export interface ReplicaOptions {
  /** pg_hba.conf of the replica instead of the primary's trust (e.g. passwords for some roles). */
  hba?: string;
  /** More `name=value` settings of the replica (hot_standby_feedback=on, …). */
  settings?: string[];
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
    private readonly replicaOptions: ReplicaOptions = {},
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

  static async start(replicaOptions: ReplicaOptions = {}): Promise<ReplicatedPostgres> {
    const folder = mkdtempSync(join(tmpdir(), 'dm-replicated-pg-'));
    chmodSync(folder, 0o755);
    if (process.getuid?.() === 0) {
      const { stdout } = await run('id', ['-u', 'postgres']);
      const { stdout: group } = await run('id', ['-g', 'postgres']);
      chownSync(folder, Number(stdout), Number(group));
    }
    const cluster = new ReplicatedPostgres(
      folder,
      await freeLoopbackPort(),
      await freeLoopbackPort(),
      replicaOptions,
    );
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

  /**
   * Gives the replica's backends started from now on one core and only the time nothing else
   * wants of it (SCHED_IDLE, nice 19), so the replica plays a server on a host of its own: on one
   * test machine its work would otherwise take the primary's cores. WAL replay, already running,
   * keeps its priority.
   */
  async lowerReplicaPriority(): Promise<void> {
    const pid = readFileSync(join(this.dataDir('replica'), 'postmaster.pid'), 'utf8').split('\n')[0];
    await run('renice', ['-n', '19', '-p', pid]);
    await run('chrt', ['--idle', '-p', '0', pid]);
    const { stdout: cores } = await run('nproc');
    if (Number(cores) > 1) await run('taskset', ['-p', '-c', String(Number(cores) - 1), pid]);
    // pg_ctl starts the server in a session of its own, which Linux may schedule as a group
    // (autogroup) as heavy as any other, whatever its processes' priority: that group is lowered too.
    const autogroup = `/proc/${pid}/autogroup`;
    if (existsSync(autogroup)) writeFileSync(autogroup, '19');
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
    let options = `-p ${port} -c listen_addresses=127.0.0.1 -k ${this.folder} -c fsync=off -c max_connections=200`;
    if (server === 'replica') {
      const { hba, settings = [] } = this.replicaOptions;
      if (hba) {
        const file = join(this.folder, 'replica-hba.conf');
        writeFileSync(file, hba);
        chmodSync(file, 0o644);
        options += ` -c hba_file=${file}`;
      }
      for (const setting of settings) options += ` -c ${setting}`;
    }
    return asServerUser('pg_ctl', ['-D', this.dataDir(server), '-l', log, '-o', options, '-w', 'start']);
  }
}
