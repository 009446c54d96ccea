import { parse } from 'cookie';
import type { Request, Response } from 'express';
import { parseLsn } from './replica-freshness';

/**
 * The browser's read position: the primary's WAL position at the end of the caller's last request
 * that touched the primary. Kept in a cookie, so whichever web process serves the next request
 * knows it without a database round trip; a caller that forges it only moves its own reads.
 */
export const READ_POSITION_COOKIE = 'dm.read_position';
/** Long past any replica lag worth serving from; a position the replica has replayed decides nothing. */
const READ_POSITION_MAX_AGE_MS = 24 * 60 * 60_000;
const LSN_TEXT = /^[0-9A-F]{1,8}\/[0-9A-F]{1,8}$/i;

/** The position the request's cookie carries, if a well-formed one. */
export function readPositionOf(request: Request): bigint | undefined {
  const header = request.headers.cookie;
  if (!header) return undefined;
  const text = parse(header)[READ_POSITION_COOKIE];
  return text && LSN_TEXT.test(text) ? parseLsn(text) : undefined;
}

/** Raises the browser's read position to `lsn` (PostgreSQL's text form), unless the answer has begun. */
export function raiseReadPosition(request: Request, response: Response, lsn: string, secure: boolean): void {
  if (response.headersSent) return;
  const carried = readPositionOf(request);
  if (carried !== undefined && carried >= parseLsn(lsn)) return;
  response.cookie(READ_POSITION_COOKIE, lsn, {
    httpOnly: true,
    sameSite: 'lax',
    secure,
    path: '/',
    maxAge: READ_POSITION_MAX_AGE_MS,
    // The position goes out as PostgreSQL prints it ("16/B374D848"), which a cookie value may hold.
    encode: (value) => value,
  });
}
