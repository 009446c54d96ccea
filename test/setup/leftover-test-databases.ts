import { Client } from 'pg';
import { dropWithinBound, IN_USE_LOCK_NAMESPACE, THROW_AWAY_COMMENT } from './test-database';

/** Databases one reaping drops at most; the rest wait for the next start. */
const REAP_AT_ONCE = 20;

/** At the start of a run on a shared server: reaps what earlier runs left there, and says so. */
export async function reapBeforeRun(adminUrl: string | undefined): Promise<void> {
  if (!adminUrl) return;
  const reaped = await reapLeftoverTestDatabases(adminUrl);
  if (reaped.length > 0)
    process.stdout.write(`Dropped ${reaped.length} test database(s) left by earlier runs\n`);
  await reapOrphanQueryRoles(adminUrl);
}

/**
 * Roles are per server, not per database: the query roles of a dropped test database
 * (`dq<its oid>_…`, see src/query/run/query-roles.service.ts) stay behind until removed here.
 * Never throws; a role still in use somewhere is left alone.
 */
export async function reapOrphanQueryRoles(adminUrl: string): Promise<void> {
  const client = new Client({ connectionString: adminUrl });
  client.on('error', () => undefined);
  try {
    await client.connect();
    const { rows } = await client.query<{ rolname: string }>(
      `SELECT rolname FROM pg_roles
        WHERE rolname ~ '^dq[0-9]+_'
          AND substring(rolname FROM '^dq([0-9]+)_')::oid NOT IN (SELECT oid FROM pg_database)`,
    );
    for (const { rolname } of rows) {
      await client.query(`DROP ROLE IF EXISTS "${rolname.replaceAll('"', '""')}"`).catch(() => undefined);
    }
  } catch (error) {
    process.stderr.write(`Could not look for leftover query roles: ${String(error)}\n`);
  } finally {
    await client.end().catch(() => undefined);
  }
}

/**
 * The test databases earlier runs left on the server (a drop given up at its bound, a run killed
 * before its teardown): only databases carrying the throw-away comment whose in-use lock nobody
 * holds, so a concurrent run's databases are never among them.
 */
export async function leftoverTestDatabases(adminUrl: string): Promise<string[]> {
  const client = new Client({ connectionString: adminUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ datname: string }>(
      `SELECT d.datname FROM pg_database d
        WHERE shobj_description(d.oid, 'pg_database') = $1
          AND NOT EXISTS (
            SELECT 1 FROM pg_locks l
             WHERE l.locktype = 'advisory' AND l.granted AND l.objsubid = 2
               AND l.classid = $2::int4::oid AND l.objid = hashtext(d.datname)::oid)
        ORDER BY d.oid`,
      [THROW_AWAY_COMMENT, IN_USE_LOCK_NAMESPACE],
    );
    return rows.map((row) => row.datname);
  } finally {
    await client.end();
  }
}

/**
 * Drops the leftover test databases, each within DROP_BOUND_MS (all at once, so a server held up
 * by another database costs one bound, and what is still held up waits for the next start).
 * Answers the names it dropped; never throws.
 */
export async function reapLeftoverTestDatabases(adminUrl: string): Promise<string[]> {
  let names: string[];
  try {
    names = (await leftoverTestDatabases(adminUrl)).slice(0, REAP_AT_ONCE);
  } catch (error) {
    process.stderr.write(`Could not look for leftover test databases: ${String(error)}\n`);
    return [];
  }
  const dropped = await Promise.all(names.map((name) => reapOne(adminUrl, name)));
  return names.filter((_, index) => dropped[index]);
}

/** Takes the database's in-use lock first, so two runs starting at once never drop it twice. */
async function reapOne(adminUrl: string, name: string): Promise<boolean> {
  const client = new Client({ connectionString: adminUrl, application_name: 'test-database-reaper' });
  client.on('error', () => undefined);
  try {
    await client.connect();
    const { rows } = await client.query<{ locked: boolean }>(
      'SELECT pg_try_advisory_lock($1, hashtext($2)) AS locked',
      [IN_USE_LOCK_NAMESPACE, name],
    );
    return rows[0].locked && (await dropWithinBound(client, name));
  } catch {
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
}
