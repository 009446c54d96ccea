import { ChildProcess, spawn } from 'node:child_process';
import { chmodSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stopChild, waitUntilListening } from './listening-child';
import { freeLoopbackPort } from './replicated-postgres';

/** Debian's pgbouncer package (installed by .ci/run). */
const PGBOUNCER = '/usr/sbin/pgbouncer';

/**
 * A throw-away PgBouncer in transaction mode in front of a PostgreSQL server, configured as
 * docs/deployment.md says: the startup parameters the app sends (planner options, statement
 * limits) are ignored, as PgBouncer cannot keep them per client. Clients connect without a
 * password; PgBouncer logs in to the server with the user's password from its auth_file (empty for
 * a local server with trust authentication, the generated one for the embedded server).
 */
export class PgBouncer {
  private constructor(
    private readonly child: ChildProcess,
    private readonly folder: string,
    readonly port: number,
  ) {}

  static async start(server: { host: string; port: number; password?: string }): Promise<PgBouncer> {
    const folder = mkdtempSync(join(tmpdir(), 'dm-pgbouncer-'));
    chmodSync(folder, 0o777);
    const port = await freeLoopbackPort();
    // auth_file quotes are doubled inside a value; the generated embedded passwords are hex anyway.
    const password = (server.password ?? '').replace(/"/g, '""');
    // Readable by the postgres user PgBouncer runs as under root; the folder is removed on stop.
    writeFileSync(join(folder, 'userlist.txt'), `"postgres" "${password}"\n`);
    writeFileSync(
      join(folder, 'pgbouncer.ini'),
      [
        '[databases]',
        `* = host=${server.host} port=${server.port}`,
        '[pgbouncer]',
        'listen_addr = 127.0.0.1',
        `listen_port = ${port}`,
        'unix_socket_dir =',
        'auth_type = trust',
        `auth_file = ${join(folder, 'userlist.txt')}`,
        'pool_mode = transaction',
        'max_client_conn = 1000',
        'default_pool_size = 20',
        'ignore_startup_parameters = options,statement_timeout,idle_in_transaction_session_timeout,extra_float_digits',
        '',
      ].join('\n'),
    );
    // PgBouncer refuses to run as root.
    const command =
      process.getuid?.() === 0
        ? spawn('runuser', ['-u', 'postgres', '--', PGBOUNCER, join(folder, 'pgbouncer.ini')], {
            stdio: 'ignore',
          })
        : spawn(PGBOUNCER, [join(folder, 'pgbouncer.ini')], { stdio: 'ignore' });
    const bouncer = new PgBouncer(command, folder, port);
    await waitUntilListening(command, port, 'pgbouncer').catch(async (error) => {
      await bouncer.stop();
      throw error;
    });
    return bouncer;
  }

  /** The URL of `database` through the pooler. */
  urlOf(database: string): string {
    return `postgres://postgres@127.0.0.1:${this.port}/${database}`;
  }

  stop(): Promise<void> {
    return stopChild(this.child, this.folder);
  }
}
