import { Client } from 'pg';
import type { RunningPostgres } from './embedded-postgres';

/** The server's major version (15 for 15.8, 18 for 18.1), as `server_version_num` tells it. */
export async function serverMajorVersion(url: string): Promise<number> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    const result = await client.query<{ server_version_num: string }>('SHOW server_version_num');
    return Math.floor(Number(result.rows[0].server_version_num) / 10_000);
  } finally {
    await client.end();
  }
}

/**
 * One line saying which database the app uses, never with its password: for a configured server
 * its address, for the embedded one a `psql` URL that reads the password from its file.
 */
export async function describeDatabase(database: RunningPostgres): Promise<string> {
  const major = await serverMajorVersion(database.url);
  if (database.psqlUrl) return `Database: embedded PostgreSQL ${major}; psql "${database.psqlUrl}"`;
  const url = new URL(database.url);
  const user = url.username ? `${decodeURIComponent(url.username)}@` : '';
  return `Database: PostgreSQL ${major} at ${user}${url.hostname || 'localhost'}:${url.port || 5432}${url.pathname}`;
}
