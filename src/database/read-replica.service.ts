import { Inject, Injectable, Logger, OnApplicationShutdown, OnModuleInit } from '@nestjs/common';
import type { Request, Response } from 'express';
import { DataSource } from 'typeorm';
import type { AuthenticatedUser } from '../common/decorators/current-user.decorator';
import { APP_CONFIG, AppConfig } from '../config/app-config';
import { buildDataSourceOptions } from './data-source-options';
import { raiseReadPosition, readPositionOf } from './read-position';
import { fallBackToPrimary, onEveryConnect } from './replica-fallback';
import { parseLsn, ReplicaFreshness } from './replica-freshness';
import { currentRequest } from './request-context';
import { pgPool } from './sql';

/** How often the replica's replay position is compared with the primary's. */
export const REPLICA_PROBE_MS = 250;
/** Read positions remembered per process, for callers that keep no cookie (API keys). */
const USER_POSITIONS_LIMIT = 10_000;
/** Requests that write nothing; any other may have written before it reads. */
export const READ_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Where reads go. With DATABASE_READ_URL set, reads that may be a moment stale (catalogue,
 * details, previews, streams, OData) ask `forReads()` and get the replica while it is
 * at most DATABASE_READ_MAX_LAG_MS behind and has replayed the caller's read position; otherwise,
 * and for everything that writes, the primary. Without a replica it is always the primary.
 *
 * The rule that keeps a caller from going back in time, whichever process serves them: a request
 * that touched the primary (wrote, or read anything there) may have seen every commit up to the
 * primary's WAL position when it ends, so that position becomes the caller's read position
 * (a cookie; per process for API-key callers). A request served by the replica alone saw no more
 * than the replica holds, which only moves forward. The replica serves a caller only once it has
 * replayed their position; each process knows the replica's replay position from its own probe,
 * which can only be behind the replica's, never ahead, so a stale probe errs towards the primary.
 */
@Injectable()
export class ReadReplica implements OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger(ReadReplica.name);
  private replica?: DataSource;
  private readonly freshness = new ReplicaFreshness();
  private readonly userPositions = new Map<string, bigint>();
  /** Requests that took a primary connection (read or wrote there), while they run. */
  private readonly touchedPrimary = new WeakSet<Request>();
  private probe?: NodeJS.Timeout;
  private probing = false;
  /** Whether the replica was last found within the lag bound, so a switch is logged once, not on every read. */
  private usingReplica?: boolean;

  constructor(
    private readonly primary: DataSource,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async onModuleInit(): Promise<void> {
    if (!this.config.databaseReadUrl) return;
    const options = buildDataSourceOptions(
      this.config.databaseReadUrl,
      this.config.databasePoolSize,
      this.config.databaseTimeouts,
    );
    // Raw reads only: without entities TypeORM checks nothing at connect (a replica refuses writes).
    this.replica = new DataSource(Object.assign(options, { entities: [], migrations: [] }));
    onEveryConnect(pgPool(this.primary), () => {
      const request = currentRequest();
      if (request) this.touchedPrimary.add(request);
    });
    this.probe = setInterval(() => void this.compare(), REPLICA_PROBE_MS);
    this.probe.unref();
    await this.compare();
  }

  async onApplicationShutdown(): Promise<void> {
    if (this.probe) clearInterval(this.probe);
    if (this.replica?.isInitialized) await this.replica.destroy().catch(() => undefined);
  }

  /** The data source for a read that may come from the replica (see the class comment). */
  forReads(): DataSource {
    if (!this.replica) return this.primary;
    const fresh = this.freshness.isFresh(Date.now(), this.config.databaseReadMaxLagMs);
    // Logged as the replica's state changes, not as callers' positions send single reads elsewhere.
    if (fresh !== this.usingReplica) {
      this.usingReplica = fresh;
      if (fresh) this.logger.log('Read replica caught up: reads go to it');
      else
        this.logger.warn(
          `Read replica down or more than ${this.config.databaseReadMaxLagMs} ms behind: reads go to the primary`,
        );
    }
    return fresh && this.replicaServesCaller() ? this.replica : this.primary;
  }

  /** Whether the replica serves reads now (undefined without one): the health check's `replica`. */
  replicaFresh(): boolean | undefined {
    return this.replica ? this.freshness.isFresh(Date.now(), this.config.databaseReadMaxLagMs) : undefined;
  }

  /**
   * At the end of a request that wrote or touched the primary, before its answer is written:
   * raises the caller's read position to the primary's position now (see the class comment).
   */
  async notePosition(request: Request, response: Response): Promise<void> {
    if (!this.replica) return;
    if (READ_METHODS.has(request.method) && !this.touchedPrimary.has(request)) return;
    let lsn: string;
    try {
      [{ lsn }] = await this.primary.query(`SELECT pg_current_wal_lsn()::text AS lsn`);
    } catch {
      // The primary not answering: nothing more was read from it either.
      return;
    }
    raiseReadPosition(request, response, lsn, this.config.appOrigin.startsWith('https://'));
    const user = request.user as AuthenticatedUser | undefined;
    if (!user) return;
    const position = parseLsn(lsn);
    if (this.userPositions.size >= USER_POSITIONS_LIMIT) this.forgetReplayedPositions();
    if (position > (this.userPositions.get(user.id) ?? 0n)) this.userPositions.set(user.id, position);
  }

  /** Whether the replica, within the lag bound, may serve the current request's caller. */
  private replicaServesCaller(): boolean {
    const request = currentRequest();
    if (!request) return true;
    // A request that writes reads what it wrote (an update answers the record as it is now).
    if (!READ_METHODS.has(request.method)) return false;
    const user = request.user as AuthenticatedUser | undefined;
    const carried = readPositionOf(request) ?? 0n;
    const remembered = (user && this.userPositions.get(user.id)) ?? 0n;
    return this.freshness.hasReplayed(carried > remembered ? carried : remembered);
  }

  /** Positions the replica has already replayed decide nothing. */
  private forgetReplayedPositions(): void {
    for (const [userId, position] of this.userPositions)
      if (this.freshness.hasReplayed(position)) this.userPositions.delete(userId);
  }
  private async compare(): Promise<void> {
    if (this.probing || !this.replica) return;
    this.probing = true;
    try {
      // A replica down at start must not stop the app: it is connected to once it answers.
      if (!this.replica.isInitialized) {
        await this.replica.initialize();
        fallBackToPrimary(pgPool(this.replica), pgPool(this.primary), () => this.freshness.forget());
      }
      const at = Date.now();
      const [primary] = await this.primary.query(`SELECT pg_current_wal_lsn()::text AS lsn`);
      this.freshness.recordPrimary(at, primary.lsn);
      const [replica] = await this.replica.query(`SELECT pg_last_wal_replay_lsn()::text AS lsn`);
      this.freshness.recordReplica(replica.lsn);
    } catch {
      // Either server not answering: caughtUpTo stays where it was and ages past the bound.
    } finally {
      this.probing = false;
    }
  }
}
