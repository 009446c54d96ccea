import type { QueryConfig } from 'pg';
import { DataSource } from 'typeorm';
import { pgPool } from '../database/sql';

/** The health check answers within a second whatever the database does (load balancers wait on it). */
export const HEALTH_DATABASE_WAIT_MS = 800;

/** A round trip to the database, given up on after HEALTH_DATABASE_WAIT_MS: whether it answered. */
export async function databaseAnswers(dataSource: DataSource): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  // pg honours a per-query answer limit its types do not list.
  const roundTrip: Promise<unknown> = pgPool(dataSource).query({
    text: 'SELECT 1',
    query_timeout: HEALTH_DATABASE_WAIT_MS,
  } as QueryConfig);
  // Waiting for a pooled connection is not covered by the query's own limit.
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error('no answer in time')), HEALTH_DATABASE_WAIT_MS);
  });
  try {
    await Promise.race([roundTrip, deadline]);
    return true;
  } catch {
    roundTrip.catch(() => undefined);
    return false;
  } finally {
    clearTimeout(timer);
  }
}
