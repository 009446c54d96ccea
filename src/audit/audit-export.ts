import { csvRow } from '../query/run/result-encoding';
import { AuditEventResponse } from './dto/audit-event.response';

export const AUDIT_CSV_COLUMNS = [
  'id',
  'occurred_at',
  'type',
  'credential_kind',
  'credential_id',
  'ip',
  'user_agent',
  'detail',
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
    ]);
  }
}
