import { execFile } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Client } from 'pg';

const run = promisify(execFile);

/** Debian's and Ubuntu's versioned PostgreSQL installs; several majors may sit side by side. */
const DEBIAN_POSTGRES_ROOT = '/usr/lib/postgresql';

/**
 * The folder of the pg_dump and pg_restore to use: PG_BIN_DIR when set, else the newest major
 * under /usr/lib/postgresql (a newer pg_dump reads older servers, never the other way round),
 * else whatever is on the PATH (undefined).
 */
function binDir(env: NodeJS.ProcessEnv): string | undefined {
  if (env.PG_BIN_DIR) return env.PG_BIN_DIR;
  if (!existsSync(DEBIAN_POSTGRES_ROOT)) return undefined;
  const majors = readdirSync(DEBIAN_POSTGRES_ROOT)
    .filter((name) => /^\d+$/.test(name) && existsSync(join(DEBIAN_POSTGRES_ROOT, name, 'bin', 'pg_dump')))
    .map(Number)
    .sort((a, b) => b - a);
  return majors.length > 0 ? join(DEBIAN_POSTGRES_ROOT, String(majors[0]), 'bin') : undefined;
}

export interface PostgresTool {
  path: string;
  major: number;
}

/** pg_dump or pg_restore, with its major version; throws a message saying what to install. */
export async function findTool(name: 'pg_dump' | 'pg_restore', env = process.env): Promise<PostgresTool> {
  const folder = binDir(env);
  const path = folder ? join(folder, name) : name;
  let version: string;
  try {
    version = (await run(path, ['--version'])).stdout;
  } catch {
    throw new Error(
      `${name} was not found (${path}). Install the PostgreSQL client tools of your server's version ` +
        `or newer (Debian/Ubuntu: postgresql-client-<major>), or point PG_BIN_DIR at their folder.`,
    );
  }
  const major = Number(/\s(\d+)(\.\d+)?/.exec(version)?.[1]);
  return { path, major };
}

/** The server's major version (18 for the embedded PostgreSQL of this app). */
export async function serverMajor(url: string): Promise<number> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ server_version_num: string }>('SHOW server_version_num');
    return Math.floor(Number(rows[0].server_version_num) / 10_000);
  } finally {
    await client.end();
  }
}

/** Refuses a tool older than the server: pg_dump stops with a version mismatch, pg_restore may misread. */
export async function checkToolFits(tool: PostgresTool, url: string): Promise<void> {
  const server = await serverMajor(url);
  if (tool.major < server) {
    throw new Error(
      `${tool.path} is version ${tool.major}, the database server is PostgreSQL ${server}: install the ` +
        `client tools of version ${server} or newer (Debian/Ubuntu: postgresql-client-${server} from ` +
        `apt.postgresql.org) and point PG_BIN_DIR at their folder if they are not found.`,
    );
  }
}

/**
 * A libpq connection for a child process: the URL without its password, the password in
 * PGPASSWORD, so it never shows in the process list.
 */
export function libpqConnection(url: string): { url: string; env: NodeJS.ProcessEnv } {
  const parsed = new URL(url);
  const password = decodeURIComponent(parsed.password);
  parsed.password = '';
  return { url: parsed.toString(), env: { ...process.env, ...(password ? { PGPASSWORD: password } : {}) } };
}
