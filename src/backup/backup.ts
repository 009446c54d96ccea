import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { Client } from 'pg';
import { embeddedDataDir, embeddedPasswordFile, startEmbeddedPostgres } from '../database/embedded-postgres';
import { BackupHeader, BackupSecrets, copyInto, readBackup, writeBackup } from './backup-file';
import { backUpCluster } from './cluster-backup';
import { restoreCluster } from './cluster-restore';
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

/**
 * `npm run backup` of the embedded database under `rootDir` (running, or started by the caller at
 * `url`): a base backup of its folder, with the secrets and its own user's password.
 */
export async function backUpEmbedded(
  url: string,
  rootDir: string,
  file: string,
  secrets: BackupSecrets,
): Promise<void> {
  const header: BackupHeader = {
    createdAt: new Date().toISOString(),
    database: decodeURIComponent(new URL(url).pathname.slice(1)),
    format: 'embedded',
    embeddedPassword: readFileSync(embeddedPasswordFile(rootDir), 'utf8').trim(),
    secrets,
  };
  try {
    await writeBackup(file, header, (out) => backUpCluster(url, embeddedDataDir(rootDir), out));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') rmSync(file, { force: true });
    throw error;
  }
}

/** The header of a backup, read before anything is restored (its secrets are checked against the environment). */
export function headerOf(file: string): BackupHeader {
  const { header, archive } = readBackup(file);
  archive.destroy();
  return header;
}

/** The secrets the backup holds. */
export function secretsOf(file: string): BackupSecrets {
  return headerOf(file).secrets;
}

/**
 * `npm run restore` of an embedded backup into the embedded database under `rootDir`, which must
 * be stopped: its folder is replaced by the backup's, and the server is started once on it to
 * replay the backup's WAL and prove it reads, before the folder it replaced is removed.
 */
export async function restoreEmbedded(rootDir: string, file: string): Promise<void> {
  const { header, archive } = readBackup(file);
  if (header.format !== 'embedded' || !header.embeddedPassword) {
    archive.destroy();
    throw new Error(
      `${file} is a pg_dump backup of a database server: restore it with DATABASE_URL naming a server`,
    );
  }
  mkdirSync(rootDir, { recursive: true });
  const passwordFile = embeddedPasswordFile(rootDir);
  const passwordBefore = readIfThere(passwordFile);
  writeFileSync(passwordFile, header.embeddedPassword, { mode: 0o600 });
  try {
    await restoreCluster(archive, embeddedDataDir(rootDir), async () => {
      const server = await startEmbeddedPostgres(rootDir, { database: header.database });
      try {
        await readsBack(server.url);
      } finally {
        await server.stop();
      }
    });
  } catch (error) {
    if (passwordBefore !== undefined) writeFileSync(passwordFile, passwordBefore, { mode: 0o600 });
    throw error;
  }
}

function readIfThere(file: string): string | undefined {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
}

/** The restored database answers and holds the app's migrations. */
async function readsBack(url: string): Promise<void> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    await client.query('SELECT count(*) FROM migrations');
  } finally {
    await client.end();
  }
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
