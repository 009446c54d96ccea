import type { Response } from 'express';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { csvRow } from '../query/run/result-encoding';
import type { AuditScope, AuditService } from './audit.service';
import { AuditEventResponse } from './dto/audit-event.response';
import type { AuditExportQuery } from './dto/audit-query.dto';

export const AUDIT_EXPORT_CONTENT_TYPES = {
  csv: 'text/csv; charset=utf-8',
  jsonl: 'application/jsonl; charset=utf-8',
};

export const AUDIT_CSV_COLUMNS = [
  'id',
  'occurred_at',
  'type',
  'credential_kind',
  'credential_id',
  'ip',
  'user_agent',
  'detail',
  // Last, so that readers of the columns above by position are unaffected: who acted matters in an
  // organisation's log, where the events are several members'.
  'user_id',
] as const;

/** The export's lines: a CSV with a header (detail as JSON text) or one JSON object per line. */
export async function* auditExportLines(
  events: AsyncIterable<AuditEventResponse>,
  format: 'csv' | 'jsonl',
): AsyncGenerator<string> {
  if (format === 'csv') yield csvRow([...AUDIT_CSV_COLUMNS]);
  for await (const event of events) {
    if (format === 'jsonl') {
      yield `${JSON.stringify(event)}\n`;
      continue;
    }
    yield csvRow([
      event.id,
      event.occurred_at,
      event.type,
      event.credential.kind,
      event.credential.id,
      event.ip,
      event.user_agent,
      JSON.stringify(event.detail),
      event.user_id,
    ]);
  }
}

/**
 * Streams every matching event of the scope, newest first, as a download: the personal log and an
 * organisation's share this one format.
 */
export async function sendAuditExport(
  audit: AuditService,
  scope: AuditScope,
  query: AuditExportQuery,
  fileName: string,
  response: Response,
): Promise<void> {
  const { format = 'csv', ...filter } = query;
  response.setHeader('Content-Type', AUDIT_EXPORT_CONTENT_TYPES[format]);
  response.setHeader('Content-Disposition', `attachment; filename="${fileName}.${format}"`);
  response.setHeader('Cache-Control', 'no-store');
  await pipeline(Readable.from(auditExportLines(audit.all(scope, filter), format)), response);
}
