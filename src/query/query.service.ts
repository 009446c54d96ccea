import { BadRequestException, HttpException, Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '../config/app-config';
import type { AuthenticatedUser } from '../common/decorators/current-user.decorator';
import { RateLimiterService, RateLimitRule } from '../common/rate-limit/rate-limiter.service';
import { DatasetActivityService } from '../assets/activity/dataset-activity.service';
import { StreamAccessService } from '../stream/stream-access.service';
import type { StreamSource } from '../stream/stream-source';
import { ANSWER_GRACE_MS } from './answer-writer';
import { checkQuery } from './check/query-check';
import { MissingRelation, QueryRefusal } from './check/query-refusal';
import { UnheldPublicTable, UnheldPublicTables } from './check/unheld-public-table';
import { QueryTable, substituteTables } from './check/table-substitution';
import { QueryHistoryService, QueryOutcome } from './history/query-history.service';
import { OpenQuery, QueryRunner, RunOptions } from './run/query-runner.service';
import { QueryRoles } from './run/query-roles.service';
import { QueryDatabase } from './run/query-database';
import {
  NESTED_TOO_DEEPLY,
  nestedTooDeeply,
  ranPastItsLimit,
  TableTakenUnderQuery,
  userResourceFailure,
} from './run/user-sql-errors';
import { AuditService } from '../audit/audit.service';

/** Queries per user and minute: plenty for a person at the editor or a notebook, not a loop. */
const QUERY_RATE: RateLimitRule = { limit: 60, windowSeconds: 60 };

interface HeldTable extends QueryTable {
  source: StreamSource;
}

/** A query on its way: rows still to read, and what the answer reports about it. */
export interface StartedQuery {
  query: OpenQuery;
  limit: number;
  startedAt: number;
  /** When the answer must have ended, whatever the client does (see AnswerWriter). */
  answerBy: number;
  /** Records the run; called once the answer is done. */
  finish(outcome: QueryOutcome): Promise<void>;
}

/** A file format's own row limit (an Excel sheet's), which caps the answer below the API's. */
export interface FileRows {
  most: number;
  /** Why, after "limit is at most N". */
  why: string;
}

/** What the history says of a query whose caller went away (the screen's Cancel, a closed connection). */
export const CANCELLED = 'Cancelled';

/** A refusal or PostgreSQL error as the answer shows it: the message and where it points. */
export class QueryFailed extends BadRequestException {
  constructor(message: string, position?: number, details: object = {}) {
    super({ error: message, message, statusCode: 400, ...(position ? { position } : {}), ...details });
  }
}

/**
 * User SQL over exactly the tables the caller may read: checked, names resolved to the held
 * tables, the user's database role brought in step with access, then run by the query runner.
 */
@Injectable()
export class QueryService {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly access: StreamAccessService,
    private readonly roles: QueryRoles,
    private readonly queryDatabase: QueryDatabase,
    private readonly runner: QueryRunner,
    private readonly rateLimiter: RateLimiterService,
    private readonly activity: DatasetActivityService,
    private readonly history: QueryHistoryService,
    private readonly unheldPublic: UnheldPublicTables,
    private readonly audit: AuditService,
  ) {}

  /** The caller's tables as SQL sees them: readable name, title and columns with types. */
  async tables(caller: AuthenticatedUser) {
    const held = await this.heldTables(caller);
    return [...held.values()].map(({ name, source }) => ({
      name,
      title: source.title,
      kind: source.kind === 'asset' ? 'dataset' : 'connector',
      columns: source.columns.map((column) => ({ name: column.name, type: column.pgType })),
    }));
  }

  /**
   * Checks and opens the caller's query. `hungUp` fires when the caller goes away: a statement
   * still working towards its first row is then cancelled in the database.
   */
  async start(
    caller: AuthenticatedUser,
    sql: string,
    requestedLimit: number | undefined,
    output: RunOptions['output'],
    hungUp?: AbortSignal,
    fileRows?: FileRows,
  ): Promise<StartedQuery> {
    const cap = Math.min(this.config.query.maxRows, fileRows?.most ?? Infinity);
    const limit = requestedLimit ?? cap;
    if (limit > cap)
      throw new QueryFailed(
        `limit is at most ${cap.toLocaleString('en')}${cap === fileRows?.most ? ` ${fileRows.why}` : ''}`,
      );
    await this.rateLimiter.consume(
      `query:${caller.id}`,
      QUERY_RATE,
      'Too many queries, please try again in a minute',
    );
    const startedAt = Date.now();
    try {
      const checked = await checkQuery(sql);
      if (checked.kind === 'explain' && output === 'binary')
        throw new QueryFailed('An EXPLAIN answers as json, csv or ndjson, not as a file of typed columns');
      const held = await this.heldTables(caller);
      // The role follows access first, also when this query then names something not held.
      const named = checked.tables.flatMap((reference) => held.get(reference.name)?.tableName ?? []);
      const login = await this.roles.syncUser(
        caller.id,
        [...held.values()].map((table) => table.tableName),
        named,
      );
      // On a query replica, the role as just brought in step must have arrived there first.
      await this.queryDatabase.awaitAccess();
      const {
        sql: statement,
        tables,
        originalPosition,
      } = substituteTables(checked.text, checked.tables, held, checked.originalPosition);
      await this.audit.recordPaidQuery(caller, sql, tables);
      for (const table of tables)
        if (table.source.kind === 'asset') this.activity.countStreamRequest(table.source.id);
      const query = await this.runner
        .open(login, statement, {
          timeoutMs: this.config.query.timeoutMs,
          // A JSON answer reads one row more to tell whether the limit cut the result.
          rowLimit: output === 'rows' ? limit + 1 : limit,
          explain: checked.kind === 'explain',
          memoryBudgetKb: this.config.query.memoryMb * 1024,
          output,
          hungUp,
          slots: {
            userKey: caller.id,
            maxConcurrent: this.config.query.maxConcurrent,
            queueMs: this.config.query.queueMs,
          },
        })
        .catch((error) => Promise.reject(this.failure(error, tables, originalPosition)));
      const finish = async (outcome: QueryOutcome) => {
        await this.recordHistory(caller, sql, startedAt, outcome);
      };
      // From the moment the statement runs: the wait for its role and for a place is not its time.
      const answerBy = Date.now() + this.config.query.timeoutMs + ANSWER_GRACE_MS;
      return { query, limit, startedAt, answerBy, finish };
    } catch (error) {
      const refusal = error instanceof MissingRelation ? await this.unheldPublic.explain(error) : error;
      const failed = nestedTooDeeply(refusal)
        ? new QueryFailed(NESTED_TOO_DEEPLY)
        : refusal instanceof QueryRefusal
          ? new QueryFailed(
              refusal.message,
              refusal.position,
              refusal instanceof UnheldPublicTable ? { listing: refusal.listing } : {},
            )
          : refusal;
      if (hungUp?.aborted) await this.recordHistory(caller, sql, startedAt, { error: CANCELLED });
      else if (failed instanceof QueryFailed || failed instanceof TableTakenUnderQuery)
        await this.recordHistory(caller, sql, startedAt, { error: failed.message });
      throw failed;
    }
  }

  /** History is a user's own: an organisation's token runs queries without keeping one. */
  private async recordHistory(
    caller: AuthenticatedUser,
    sql: string,
    startedAt: number,
    outcome: QueryOutcome,
  ): Promise<void> {
    if (caller.organisationId) return;
    await this.history.record(caller.id, sql, startedAt, outcome);
  }

  /** A PostgreSQL error in the user's terms: internal table names replaced by readable ones. */
  failure(
    error: unknown,
    tables: HeldTable[],
    originalPosition: (position: number) => number,
  ): HttpException | unknown {
    const pgError = error as { code?: string; message?: string; position?: string };
    const resources = userResourceFailure(pgError);
    if (resources) return new QueryFailed(resources);
    if (ranPastItsLimit(pgError))
      return new QueryFailed(
        `The query ran longer than ${this.config.query.timeoutMs / 1000} s and was stopped`,
      );
    if (typeof pgError.code !== 'string' || /^(08|57P|53|58|XX)/.test(pgError.code)) return error;
    let message = pgError.message ?? 'The query failed';
    for (const table of tables) message = message.replaceAll(table.tableName, table.name);
    const position = pgError.position ? originalPosition(Number(pgError.position)) : undefined;
    return new QueryFailed(message, position);
  }

  /** The message of an error that came after the answer began. */
  failureText(error: unknown): string {
    const failed = this.failure(error, [], (position) => position);
    return failed instanceof HttpException ? failed.message : 'The query failed';
  }

  /** Every table the caller may read in full, by readable name; tables not created yet are left out. */
  private async heldTables(caller: AuthenticatedUser): Promise<Map<string, HeldTable>> {
    const sources = await this.access.readableSources(caller);
    return new Map(
      sources
        .filter((source) => source.columns.length > 0)
        .map((source) => [
          source.readableName,
          {
            name: source.readableName,
            tableName: source.tableName,
            columns: source.columns.map((column) => column.name),
            source,
          },
        ]),
    );
  }
}
