import { Injectable, NotFoundException } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { AuditService } from '../../audit/audit.service';
import { sqlOn } from '../../database/sql';
import { describeBrowser } from './describe-browser';
import type { SessionDetails } from './session-details';
import { SessionResponse } from './session-list.response';
import { displayAddress } from '../../common/client-address';

/** The session's public id: its cookie id must never reach a page, so the list shows a hash of it. */
const PUBLIC_ID = `encode(sha256(convert_to(sid, 'UTF8')), 'hex')`;
/** Same expression as the session_user_idx index, so a user's sessions are an index look-up. */
const OF_USER = `(sess -> 'passport' ->> 'user') = $1`;

/** A user's logged-in sessions, read from and ended in the session store's table. */
@Injectable()
export class SessionsService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly audit: AuditService,
  ) {}

  async list(userId: string, currentSessionId: string): Promise<SessionResponse[]> {
    const rows: Array<{ id: string; current: boolean; details: SessionDetails | null }> =
      await this.dataSource.query(
        `SELECT ${PUBLIC_ID} AS id, sid = $2 AS current, sess -> 'details' AS details
           FROM session WHERE ${OF_USER} AND expire > now()`,
        [userId, currentSessionId],
      );
    return rows
      .map((row) => ({
        id: row.id,
        browser: describeBrowser(row.details?.userAgent ?? ''),
        // Sessions recorded before addresses were stored as shown still hold `::ffff:…`.
        ip: row.details?.ip ? displayAddress(row.details.ip) : '',
        last_seen_at: row.details ? new Date(row.details.lastSeenAt).toISOString() : null,
        current: row.current,
      }))
      .sort((left, right) => Number(right.current) - Number(left.current) || compareLastSeen(left, right));
  }

  /** Ends one of the user's sessions; another user's session, like a missing one, is a 404. */
  async signOut(userId: string, sessionId: string): Promise<void> {
    const { rowCount } = await sqlOn(this.dataSource)(
      `DELETE FROM session WHERE ${OF_USER} AND ${PUBLIC_ID} = $2`,
      [userId, sessionId],
    );
    if (rowCount === 0) throw new NotFoundException('Session not found');
    await this.audit.record('sign_out', { session_id: sessionId }, userId);
  }

  /** Ends every session of the user but the one making the request; answers how many ended. */
  async signOutOthers(userId: string, currentSessionId: string): Promise<number> {
    const { rowCount } = await sqlOn(this.dataSource)(`DELETE FROM session WHERE ${OF_USER} AND sid <> $2`, [
      userId,
      currentSessionId,
    ]);
    await this.audit.record('sign_out', { other_sessions: rowCount }, userId);
    return rowCount;
  }
}

function compareLastSeen(left: SessionResponse, right: SessionResponse): number {
  return (right.last_seen_at ?? '').localeCompare(left.last_seen_at ?? '');
}
