import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import type { AuthenticatedUser } from '../common/decorators/current-user.decorator';
import { currentRequest } from '../database/request-context';
import { Sql, sqlOn } from '../database/sql';
import type { StreamSource } from '../stream/stream-source';
import { isUuid } from '../common/uuid';
import { auditActorOf } from './audit-actor';
import type { AuditDetail, AuditEventType } from './audit-event-type';
import { AuditEventResponse } from './dto/audit-event.response';
import type { AuditFilter } from './dto/audit-query.dto';

/** How much of a query's text the log keeps: enough to recognise it, not the whole statement. */
export const QUERY_TEXT_IN_LOG = 200;
const EXPORT_BATCH = 1000;

interface AuditRow {
  id: string;
  user_id: string | null;
  type: string;
  detail: AuditDetail;
  credential_kind: string;
  credential_id: string | null;
  ip: string | null;
  user_agent: string | null;
  occurred_at: Date;
}

/** Whose log a read covers: a user's own events, or those attributed to an organisation. */
export type AuditScope = { userId: string } | { organisationId: string };

/**
 * The append-only audit log. Services call `record` (or `recordIn` with their transaction's
 * manager, so the event commits or rolls back with the change); who acted and from where come
 * from the request being served.
 */
@Injectable()
export class AuditService {
  constructor(private readonly dataSource: DataSource) {}

  /** Records an event for the user (the request's user unless named, e.g. a failed sign-in). */
  record(type: AuditEventType, detail: AuditDetail = {}, userId?: string | null): Promise<void> {
    return this.recordIn(sqlOn(this.dataSource), type, detail, userId);
  }

  /**
   * Records the event in the caller's transaction (its manager, or its raw-SQL runner): it
   * exists exactly when the change does. An event whose detail names an organisation
   * (`organisation_id`) is attributed to it and shows in that organisation's log too.
   */
  async recordIn(
    transaction: EntityManager | Sql,
    type: AuditEventType,
    detail: AuditDetail = {},
    userId?: string | null,
  ): Promise<void> {
    const request = currentRequest();
    const actor = auditActorOf(request);
    const who = userId !== undefined ? userId : ((request?.user as { id?: string } | undefined)?.id ?? null);
    const sql = typeof transaction === 'function' ? transaction : sqlOn(transaction);
    await sql(
      `INSERT INTO audit_events
              (user_id, credential_kind, credential_id, type, detail, ip, user_agent, organisation_id)
       VALUES ($1, $2, COALESCE($3, (SELECT id::text FROM api_tokens WHERE token_hash = $4)), $5, $6, $7, $8, $9)`,
      [
        who,
        actor.credentialKind,
        actor.credentialId,
        actor.tokenHash ?? null,
        type,
        JSON.stringify(detail),
        actor.ip,
        actor.userAgent,
        isUuid(detail.organisation_id) ? detail.organisation_id : null,
      ],
    );
  }

  /**
   * A query that reads datasets the caller bought (held by a purchase or subscription grant) is recorded with
   * the start of its text and those datasets; queries over free or own data are not.
   */
  async recordPaidQuery(caller: AuthenticatedUser, sql: string, tables: Array<{ source: StreamSource }>) {
    const assetIds = tables.flatMap(({ source }) => (source.kind === 'asset' ? [source.id] : []));
    if (assetIds.length === 0) return;
    const { rows } = await sqlOn(this.dataSource)<{ asset_id: string }>(
      `SELECT asset_id FROM access_grants
        WHERE user_id = $1 AND asset_id = ANY($2::uuid[]) AND reason IN ('purchase', 'subscription')
        ORDER BY asset_id`,
      [caller.id, assetIds],
    );
    if (rows.length === 0) return;
    await this.record(
      'paid_data_queried',
      { query: sql.slice(0, QUERY_TEXT_IN_LOG), dataset_ids: rows.map((row) => row.asset_id) },
      caller.id,
    );
  }

  /** One page of the scope's events, newest first. */
  async list(scope: AuditScope, filter: AuditFilter): Promise<AuditEventResponse[]> {
    const rows = await this.page(scope, filter, filter.before ?? null, filter.limit ?? 50);
    return rows.map(toResponse);
  }

  /** All of the scope's events that match, newest first, read in batches (for the export). */
  async *all(scope: AuditScope, filter: AuditFilter): AsyncGenerator<AuditEventResponse> {
    let before: string | null = null;
    for (;;) {
      const rows = await this.page(scope, filter, before, EXPORT_BATCH);
      for (const row of rows) yield toResponse(row);
      if (rows.length < EXPORT_BATCH) return;
      before = rows[rows.length - 1].id;
    }
  }

  private async page(
    scope: AuditScope,
    filter: AuditFilter,
    before: string | null,
    limit: number,
  ): Promise<AuditRow[]> {
    // A fixed column name per scope, never text from the request.
    const [column, owner] =
      'userId' in scope ? ['user_id', scope.userId] : ['organisation_id', scope.organisationId];
    const { rows } = await sqlOn(this.dataSource)<AuditRow>(
      `SELECT id::text, user_id, type, detail, credential_kind, credential_id, ip, user_agent, occurred_at
         FROM audit_events
        WHERE ${column} = $1
          AND ($2::bigint IS NULL OR id < $2)
          AND ($3::text[] IS NULL OR type = ANY($3))
          AND ($4::timestamptz IS NULL OR occurred_at >= $4)
          AND ($5::timestamptz IS NULL OR occurred_at < $5)
        ORDER BY audit_events.id DESC -- the number, not the text the answer carries
        LIMIT $6`,
      [owner, before, filter.type ?? null, filter.from ?? null, filter.to ?? null, limit],
    );
    return rows;
  }
}

function toResponse(row: AuditRow): AuditEventResponse {
  return {
    id: row.id,
    user_id: row.user_id,
    type: row.type,
    detail: row.detail,
    credential: { kind: row.credential_kind, id: row.credential_id },
    ip: row.ip,
    user_agent: row.user_agent,
    occurred_at: row.occurred_at.toISOString(),
  };
}
