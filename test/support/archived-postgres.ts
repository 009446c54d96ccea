import { execFile } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Client } from 'pg';
import { freeLoopbackPort } from './replicated-postgres';

const run = promisify(execFile);
/** The machine's PostgreSQL 15 binaries and Debian's pgbackrest package (installed by .ci/run). */
const BIN = '/usr/lib/postgresql/15/bin';
const PGBACKREST = '/usr/bin/pgbackrest';
const STANZA = 'dm';

/** PostgreSQL and pgBackRest refuse to run as root: as root, each runs as the postgres system user. */
function asServerUser(command: string, args: string[]) {
  const options = { maxBuffer: 16 * 1024 * 1024 };
  return process.getuid?.() === 0
    ? run('runuser', ['-u', 'postgres', '--', command, ...args], options)
    : run(command, args, options);
}

/**
 * A throw-away PostgreSQL 15 primary that archives every WAL segment to a pgBackRest repository,
 * all in one temporary folder (removed by destroy()): the "Continuous backup and point-in-time
 * restore" set-up of docs/deployment.md, with the repository on the same disk because the test
 * only plays the primary's loss. Commit timestamps are tracked, so a test can tell which rows were
 * committed before a restore target.
 */
export class ArchivedPostgres {
  private constructor(
    private readonly folder: string,
    readonly port: number,
  ) {}

  urlOf(database: string): string {
    return `postgres://postgres@127.0.0.1:${this.port}/${database}`;
  }

  private get dataDir(): string {
    return join(this.folder, 'pgdata');
  }

  private get configFile(): string {
    return join(this.folder, 'pgbackrest.conf');
  }

  static async start(): Promise<ArchivedPostgres> {
    if (!existsSync(PGBACKREST))
      throw new Error(`${PGBACKREST} is missing: apt-get install pgbackrest (.ci/run installs it)`);
    const folder = mkdtempSync(join(tmpdir(), 'dm-archived-pg-'));
    chmodSync(folder, 0o755);
    for (const sub of ['repo', 'log', 'lock', 'spool']) mkdirSync(join(folder, sub));
    if (process.getuid?.() === 0) {
      const uid = Number((await run('id', ['-u', 'postgres'])).stdout);
      const gid = Number((await run('id', ['-g', 'postgres'])).stdout);
      for (const path of ['', 'repo', 'log', 'lock', 'spool']) chownSync(join(folder, path), uid, gid);
    }
    const server = new ArchivedPostgres(folder, await freeLoopbackPort());
    try {
      server.writeConfig();
      await asServerUser(join(BIN, 'initdb'), [
        '-D',
        server.dataDir,
        '-U',
        'postgres',
        '--auth=trust',
        '-E',
        'UTF8',
      ]);
      await server.startServer();
      await server.backrest('stanza-create');
      // Checks that a WAL segment reaches the repository: archiving works before anything counts on it.
      await server.backrest('check');
    } catch (error) {
      await server.destroy();
      throw error;
    }
    return server;
  }

  /** A full or an incremental backup (since the last backup of any type), taken while writes go on. */
  async backup(type: 'full' | 'incr'): Promise<void> {
    await this.backrest('backup', `--type=${type}`);
  }

  /** The backups in the repository, oldest first, by type. */
  async backupTypes(): Promise<string[]> {
    const { stdout } = await this.backrest('info', '--output=json');
    const [stanza] = JSON.parse(stdout) as Array<{ backup: Array<{ type: string }> }>;
    return stanza.backup.map((backup) => backup.type);
  }

  /** Closes the current WAL segment and waits until pgBackRest has archived it: nothing written so far can be lost. */
  async archiveCurrentWal(): Promise<void> {
    const client = new Client({ connectionString: this.urlOf('postgres') });
    await client.connect();
    try {
      const [{ segment }] = (await client.query(`SELECT pg_walfile_name(pg_switch_wal()) AS segment`))
        .rows as Array<{ segment: string }>;
      for (const deadline = Date.now() + 60_000; ;) {
        const [{ last }] = (await client.query(`SELECT last_archived_wal AS last FROM pg_stat_archiver`))
          .rows as Array<{ last: string | null }>;
        if (last && last >= segment) return;
        if (Date.now() > deadline) throw new Error(`WAL segment ${segment} was not archived in time`);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    } finally {
      await client.end();
    }
  }

  /** The machine dies: the server stops without a checkpoint and its data folder is gone. */
  async destroyPrimary(): Promise<void> {
    await asServerUser(join(BIN, 'pg_ctl'), ['-D', this.dataDir, '-m', 'immediate', '-w', 'stop']);
    rmSync(this.dataDir, { recursive: true, force: true });
  }

  /**
   * Restores the newest backup into an empty data folder, replays archived WAL up to `target`
   * (commits at or before it are kept, later ones are not), promotes and starts the server.
   * Answers the milliseconds from the restore's start until the server takes writes.
   */
  async restoreTo(target: string): Promise<number> {
    const started = Date.now();
    await asServerUser('mkdir', ['-m', '700', this.dataDir]);
    await this.backrest('restore', '--type=time', `--target=${target}`, '--target-action=promote');
    await this.startServer();
    const client = new Client({ connectionString: this.urlOf('postgres') });
    await client.connect();
    try {
      for (const deadline = Date.now() + 120_000; ;) {
        const [{ recovering }] = (await client.query(`SELECT pg_is_in_recovery() AS recovering`)).rows;
        if (!recovering) break;
        if (Date.now() > deadline) throw new Error('The restored server did not leave recovery in time');
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    } finally {
      await client.end();
    }
    return Date.now() - started;
  }

  async destroy(): Promise<void> {
    await asServerUser(join(BIN, 'pg_ctl'), ['-D', this.dataDir, '-m', 'immediate', '-w', 'stop']).catch(
      () => undefined,
    );
    rmSync(this.folder, { recursive: true, force: true });
  }

  private backrest(command: string, ...options: string[]) {
    return asServerUser(PGBACKREST, [
      `--config=${this.configFile}`,
      `--stanza=${STANZA}`,
      ...options,
      command,
    ]);
  }

  private writeConfig(): void {
    const { folder } = this;
    writeFileSync(
      this.configFile,
      [
        '[global]',
        `repo1-path=${join(folder, 'repo')}`,
        // Two full backups kept, and the WAL needed to restore to any moment since the older one.
        'repo1-retention-full=2',
        `log-path=${join(folder, 'log')}`,
        `lock-path=${join(folder, 'lock')}`,
        `spool-path=${join(folder, 'spool')}`,
        'log-level-console=warn',
        'log-level-file=off',
        // A checkpoint at once instead of waiting for the next scheduled one: a test must not wait minutes.
        'start-fast=y',
        'compress-type=lz4',
        '',
        `[${STANZA}]`,
        `pg1-path=${this.dataDir}`,
        `pg1-port=${this.port}`,
        `pg1-socket-path=${folder}`,
        '',
      ].join('\n'),
    );
    chmodSync(this.configFile, 0o644);
  }

  private startServer(): Promise<unknown> {
    const log = join(this.folder, 'server.log');
    writeFileSync(log, '');
    chmodSync(log, 0o666);
    const archive = `${PGBACKREST} --config=${this.configFile} --stanza=${STANZA} archive-push %p`;
    // fsync off: the data is thrown away; sockets in the folder, not the machine's shared one.
    const options = [
      `-p ${this.port} -c listen_addresses=127.0.0.1 -k ${this.folder} -c fsync=off`,
      `-c archive_mode=on -c "archive_command=${archive}" -c track_commit_timestamp=on`,
    ].join(' ');
    return asServerUser(join(BIN, 'pg_ctl'), ['-D', this.dataDir, '-l', log, '-o', options, '-w', 'start']);
  }
}
