import { Logger } from '@nestjs/common';
import type { Client } from 'pg';
import { isStopping } from '../../common/process-stopping';

/** First key of the two-key advisory locks that say "this runner's process is alive". */
export const RUNNER_LOCK_NAMESPACE = 727_100_003;

/**
 * SQL condition, for a row aliased `r` with a `runner_id`, that is true while the process that
 * owns the run still holds its liveness lock. Postgres lists advisory locks (two-key form,
 * objsubid 2) with both keys as oids, hence the casts.
 */
export const RUNNER_ALIVE_SQL = `EXISTS (
  SELECT 1 FROM pg_locks l
   WHERE l.locktype = 'advisory' AND l.granted AND l.objsubid = 2
     AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database())
     AND l.classid = ${RUNNER_LOCK_NAMESPACE}::int4::oid
     AND l.objid = hashtext(r.runner_id)::oid)`;

/**
 * Holds a session advisory lock keyed on this process's runner id on a connection of its own.
 * Postgres drops the lock the moment that connection ends, so when the process is killed its
 * runs can be told dead at once, without waiting for their heartbeat to go stale.
 */
export class RunnerLiveness {
  private readonly logger = new Logger(RunnerLiveness.name);
  private client?: Client;
  private connecting?: Promise<void>;
  /**
   * When the lock now held was taken, by the database's clock. A run of this process whose
   * heartbeat is older and which it is not executing was cut off when the lock was lost (the
   * database restarted or failed over): see orphaned-runs.ts.
   */
  lockedAt?: Date;

  constructor(
    private readonly newClient: () => Client,
    private readonly runnerId: string,
  ) {}

  /** Takes the lock if this process does not hold it (first run, or after a lost connection). */
  async hold(): Promise<void> {
    if (this.client) return;
    this.connecting ??= this.connect().finally(() => (this.connecting = undefined));
    await this.connecting;
  }

  private async connect(): Promise<void> {
    const client = this.newClient();
    const lost = () => {
      if (this.client === client) this.client = undefined;
    };
    // A dropped connection (database restart) must not crash the process: the next run re-locks.
    client.on('error', (error) => {
      const message = `Runner liveness connection lost: ${error.message}`;
      if (isStopping()) this.logger.debug(message);
      else this.logger.warn(message);
      lost();
    });
    client.on('end', lost);
    try {
      await client.connect();
      const { rows } = await client.query<{ locked_at: Date }>(
        'SELECT pg_try_advisory_lock($1, hashtext($2)), now() AS locked_at',
        [RUNNER_LOCK_NAMESPACE, this.runnerId],
      );
      this.lockedAt = rows[0].locked_at;
    } catch (error) {
      await client.end().catch(() => undefined);
      throw error;
    }
    this.client = client;
  }

  async release(): Promise<void> {
    const client = this.client;
    this.client = undefined;
    await client?.end().catch(() => undefined);
  }
}
