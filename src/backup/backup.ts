import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { rmSync } from 'node:fs';
import { Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { BackupSecrets, copyInto, readBackup, writeBackup } from './backup-file';
import { checkToolFits, findTool, libpqConnection } from './postgres-tools';

/** Runs a PostgreSQL tool; stdin/stdout are wired by `wire`; throws with the tool's own message. */
async function runTool(
  path: string,
  args: string[],
  env: NodeJS.ProcessEnv,
  wire: (stdin: Writable, stdout: Readable) => Promise<void>,
): Promise<void> {
  const child = spawn(path, args, { env, stdio: ['pipe', 'pipe', 'pipe'] });
  let errors = '';
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (errors += chunk));
  const exited = once(child, 'exit') as Promise<[number | null]>;
  await wire(child.stdin, child.stdout);
  const [code] = await exited;
  if (code !== 0) throw new Error(`${path} failed (exit ${code}): ${errors.trim()}`);
}

/**
 * `npm run backup`: the database as pg_dump's custom format, with the secrets it needs, in one
 * file of mode 0600. A failed backup leaves no file behind.
 */
export async function backUp(databaseUrl: string, file: string, secrets: BackupSecrets): Promise<void> {
  const pgDump = await findTool('pg_dump');
  await checkToolFits(pgDump, databaseUrl);
  const connection = libpqConnection(databaseUrl);
  const header = {
    createdAt: new Date().toISOString(),
    database: decodeURIComponent(new URL(databaseUrl).pathname.slice(1)),
    secrets,
  };
  try {
    await writeBackup(file, header, (out) =>
      runTool(
        pgDump.path,
        ['--format=custom', '--no-owner', '--no-privileges', '--dbname', connection.url],
        connection.env,
        async (stdin, stdout) => {
          stdin.end();
          await copyInto(stdout, out);
        },
      ),
    );
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') rmSync(file, { force: true });
    throw error;
  }
}

/** The secrets the backup holds, read before anything is restored (to check them against the environment). */
export function secretsOf(file: string): BackupSecrets {
  const { header, archive } = readBackup(file);
  archive.destroy();
  return header.secrets;
}

/**
 * `npm run restore`: the backup's tables, rows and migrations in place of the database's (pg_restore
 * --clean, in one transaction: all or nothing). Owners and grants are not restored: the app's user
 * owns what it restores, and the query roles get their grants again on first use.
 */
export async function restore(databaseUrl: string, file: string): Promise<void> {
  const pgRestore = await findTool('pg_restore');
  await checkToolFits(pgRestore, databaseUrl);
  const connection = libpqConnection(databaseUrl);
  const { archive } = readBackup(file);
  await runTool(
    pgRestore.path,
    [
      '--clean',
      '--if-exists',
      '--no-owner',
      '--no-privileges',
      '--single-transaction',
      '--exit-on-error',
      '--dbname',
      connection.url,
    ],
    connection.env,
    async (stdin, stdout) => {
      stdout.resume();
      await pipeline(archive, stdin);
    },
  );
}
