import { Injectable, Logger } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { QueryHistoryEntry } from './entities/query-history-entry.entity';
import type { QueryHistoryEntryResponse } from './query-history-entry.response';

/** Queries kept per user: the oldest beyond this go as new ones come. */
export const HISTORY_KEPT_PER_USER = 200;

/** How a run ended: the rows it answered (null when not counted: a CSV answer), or why it did not. */
export type QueryOutcome = { rowCount: number | null } | { error: string };

/** The queries each user ran, written by the server as each one ends; only the newest are kept. */
@Injectable()
export class QueryHistoryService {
  private readonly logger = new Logger(QueryHistoryService.name);

  constructor(@InjectRepository(QueryHistoryEntry) private readonly entries: Repository<QueryHistoryEntry>) {}

  /** Never fails the query it records: a lost history line is logged, not shown to the user. */
  async record(userId: string, sql: string, startedAt: number, outcome: QueryOutcome): Promise<void> {
    try {
      await this.entries.insert({
        userId,
        sql,
        startedAt: new Date(startedAt),
        elapsedMs: Math.max(0, Date.now() - startedAt),
        rowCount: 'rowCount' in outcome ? outcome.rowCount : null,
        error: 'error' in outcome ? outcome.error : null,
      });
      await this.entries.query(
        `DELETE FROM query_history WHERE user_id = $1 AND id NOT IN (
           SELECT id FROM query_history WHERE user_id = $1
           ORDER BY started_at DESC, id DESC LIMIT $2)`,
        [userId, HISTORY_KEPT_PER_USER],
      );
    } catch (error) {
      this.logger.error({ message: 'Could not record a query in the history', userId, error: String(error) });
    }
  }

  async list(userId: string): Promise<QueryHistoryEntryResponse[]> {
    const entries = await this.entries.find({
      where: { userId },
      order: { startedAt: 'DESC', id: 'DESC' },
      take: HISTORY_KEPT_PER_USER,
    });
    return entries.map((entry) => ({
      id: entry.id,
      sql: entry.sql,
      started_at: entry.startedAt.toISOString(),
      elapsed_ms: entry.elapsedMs,
      row_count: entry.rowCount,
      error: entry.error,
    }));
  }

  async clear(userId: string): Promise<void> {
    await this.entries.delete({ userId });
  }
}
