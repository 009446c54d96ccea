import type { QueryConfig } from 'pg';
import { DataSource } from 'typeorm';
import { ReadReplica } from '../database/read-replica.service';
import { pgPool } from '../database/sql';
import { HEALTH_DATABASE_WAIT_MS } from './database-round-trip';

export interface ReplicationHealth {
  /** Whether the read replica (DATABASE_READ_URL) serves reads: `behind` when it is down or lags. */
  replica?: 'up' | 'behind';
  /** Replicas streaming from the primary now, when DATABASE_EXPECTED_REPLICAS asks for some. */
  replicas_streaming?: number;
  /** A replica is missing: the app serves, but one more failure could cost reads or failover. */
  degraded: boolean;
}

/** How many replicas stream from the primary (pg_stat_replication), or undefined if it did not answer in time. */
async function streamingReplicas(primary: DataSource): Promise<number | undefined> {
  try {
    const { rows } = await pgPool(primary).query({
      text: `SELECT count(*)::int AS count FROM pg_stat_replication`,
      query_timeout: HEALTH_DATABASE_WAIT_MS,
    } as QueryConfig);
    return (rows[0] as { count: number }).count;
  } catch {
    return undefined;
  }
}

/**
 * The replication part of GET /api/health (docs/deployment.md, "Automatic failover"): degraded
 * while the read replica is down or behind, or fewer replicas stream from the primary than
 * DATABASE_EXPECTED_REPLICAS. Nothing is asked when neither is configured.
 */
export async function replicationHealth(
  primary: DataSource,
  reads: ReadReplica,
  expectedReplicas: number,
): Promise<ReplicationHealth> {
  const fresh = reads.replicaFresh();
  const streaming = expectedReplicas > 0 ? await streamingReplicas(primary) : undefined;
  return {
    ...(fresh === undefined ? {} : { replica: fresh ? 'up' : 'behind' }),
    ...(expectedReplicas > 0 ? { replicas_streaming: streaming ?? 0 } : {}),
    degraded: fresh === false || (expectedReplicas > 0 && (streaming ?? 0) < expectedReplicas),
  };
}
