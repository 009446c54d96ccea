import { quoteIdentifier } from '../../database/data-tables/data-table-names';
import type { TableReference } from './query-check';
import { missingRelation, QueryRefusal } from './query-refusal';

/** What a readable name stands for: the table in schema `data` and the columns users see. */
export interface QueryTable {
  name: string;
  tableName: string;
  columns: string[];
}

/** The text of the table reference at `start`: a quoted identifier or a run of identifier characters. */
function tokenAt(bytes: Buffer, start: number): { text: string; end: number; name: string } {
  if (bytes[start] === 0x22 /* " */) {
    let end = start + 1;
    for (;;) {
      const quote = bytes.indexOf(0x22, end);
      if (quote < 0) throw new QueryRefusal('Unsupported table reference');
      if (bytes[quote + 1] === 0x22) {
        end = quote + 2;
        continue;
      }
      end = quote + 1;
      break;
    }
    const text = bytes.subarray(start, end).toString('utf8');
    return { text, end, name: text.slice(1, -1).replaceAll('""', '"') };
  }
  let end = start;
  while (end < bytes.length && /[A-Za-z0-9_$\u0080-\uffff]/.test(String.fromCharCode(bytes[end]))) end += 1;
  const text = bytes.subarray(start, end).toString('utf8');
  return { text, end, name: text.toLowerCase() };
}

/**
 * The statement PostgreSQL runs: each readable name replaced, where it stands, by a subquery of
 * that table's visible columns (internal ones such as the row id stay out of `SELECT *`), named
 * as the user wrote it so `name.column` still resolves. A name the caller does not hold fails
 * exactly like one that does not exist. `userPosition` takes a position in `sql` back to the text
 * the user wrote (the check may have added to it: see aggregate-guard.ts).
 */
export function substituteTables<Table extends QueryTable>(
  sql: string,
  references: TableReference[],
  held: ReadonlyMap<string, Table>,
  userPosition: (position: number) => number = (position) => position,
): { sql: string; tables: Table[]; originalPosition: (position: number) => number } {
  const bytes = Buffer.from(sql, 'utf8');
  const characterPosition = (byteOffset: number) => bytes.subarray(0, byteOffset).toString('utf8').length + 1;
  const used = new Map<string, Table>();
  /** Each replacement: where it starts and ends in the new text, where the name stood, and the length change so far. */
  const replaced: Array<{ start: number; end: number; originalStart: number; shiftAfter: number }> = [];
  let shift = 0;
  const parts: Buffer[] = [];
  let copied = 0;
  for (const reference of references) {
    const table = held.get(reference.name);
    if (!table) throw missingRelation(reference.name, userPosition(characterPosition(reference.byteOffset)));
    if (reference.inTableStatement)
      throw new QueryRefusal(`Write SELECT * FROM ${reference.name} instead of TABLE ${reference.name}`);
    const token = tokenAt(bytes, reference.byteOffset);
    if (token.name !== reference.name) throw new QueryRefusal('Unsupported table reference');
    const columns = table.columns.map(quoteIdentifier).join(', ');
    const source = `(SELECT ${columns || 'NULL WHERE false'} FROM data.${quoteIdentifier(table.tableName)})`;
    parts.push(bytes.subarray(copied, reference.byteOffset));
    const replacement = reference.hasAlias ? source : `${source} AS ${quoteIdentifier(reference.name)}`;
    parts.push(Buffer.from(replacement, 'utf8'));
    const originalStart = characterPosition(reference.byteOffset);
    const start = originalStart + shift;
    shift += replacement.length - token.text.length;
    replaced.push({ start, end: start + replacement.length, originalStart, shiftAfter: shift });
    copied = token.end;
    used.set(table.name, table);
  }
  parts.push(bytes.subarray(copied));
  // A position PostgreSQL reports in the statement it ran, back in the text the user wrote; one
  // inside a replacement points at the table name.
  const originalPosition = (position: number): number => {
    let shiftBefore = 0;
    for (const { start, end, originalStart, shiftAfter } of replaced) {
      if (position < start) break;
      if (position < end) return userPosition(originalStart);
      shiftBefore = shiftAfter;
    }
    return userPosition(position - shiftBefore);
  };
  return { sql: Buffer.concat(parts).toString('utf8'), tables: [...used.values()], originalPosition };
}
