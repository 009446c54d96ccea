import { once } from 'node:events';
import { finished } from 'node:stream/promises';
import type { PoolClient } from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import { copyFromStdin, insertDefaultRows } from '../../database/data-tables/data-table-ddl';
import { sqlOn } from '../../database/sql';
import { MAX_STORED_VALUE_BYTES, VALUE_TOO_LARGE } from '../../query/run/row-size-cap';
import { applyColumnChanges } from './column-changes';
import { csvField } from './column-types';
import { ConnectorFetchError } from './connector-fetch-error';
import { CopyColumn, RunColumns, withIteration } from './record-columns';
import type { FetchedPage } from './run-plan';

/**
 * COPYs each page into the staging table as it arrives, adding and widening columns first when
 * the page needs it. One COPY spans pages and is only restarted when the columns change. Each
 * page is written before the next one is taken, and a write waits while the connection to
 * Postgres is full, so at most the pages the caller prefetches are held at once. The run's id
 * and fetch time are the staging table's defaults, never sent. Answers the rows written.
 */
export async function copyPagesInto(
  client: PoolClient,
  staging: string,
  pages: AsyncIterable<FetchedPage>,
  columns: RunColumns,
): Promise<number> {
  let copy: OpenCopy | undefined;
  let rowCount = 0;
  try {
    for await (const page of pages) {
      const rows = withIteration(page.records, page.iteration);
      const changes = columns.changesFor(rows);
      if (changes.length > 0 || !copy) {
        await copy?.finish();
        await applyColumnChanges(sqlOn(client), staging, changes);
        const typed = columns.typed();
        copy = typed.length > 0 ? openCopy(client, staging, typed) : undefined;
      }
      // Until some field has a value there is no column to COPY: the rows are the run's defaults alone.
      if (copy) await copy.write(csvRows(rows, copy.columns, rowCount + 1));
      else await insertDefaultRows(sqlOn(client), staging, rows.length);
      rowCount += rows.length;
    }
    await copy?.finish();
    return rowCount;
  } catch (error) {
    // An open COPY must be failed explicitly, or the connection stays in COPY mode.
    await copy?.abort();
    throw error;
  }
}

interface OpenCopy {
  columns: CopyColumn[];
  write(chunk: string): Promise<void>;
  finish(): Promise<void>;
  abort(): Promise<void>;
}

/** A COPY … FROM STDIN into the staging table for the typed columns known now (at least one). */
function openCopy(client: PoolClient, staging: string, columns: CopyColumn[]): OpenCopy {
  const columnNames = columns.map((column) => column.name);
  const stream = client.query(copyFrom(copyFromStdin(staging, columnNames, 'FORMAT csv')));
  let failure: Error | undefined;
  stream.on('error', (error: Error) => (failure = error));
  return {
    columns,
    write: async (chunk) => {
      if (failure) throw failure;
      if (chunk === '') return;
      if (!stream.write(chunk)) await once(stream, 'drain');
    },
    finish: async () => {
      if (failure) throw failure;
      stream.end();
      await finished(stream);
    },
    abort: async () => {
      if (stream.destroyed) return;
      stream.destroy(new Error('Run aborted'));
      await finished(stream).catch(() => undefined);
    },
  };
}

/** A UTF-16 code unit is at most 3 bytes of UTF-8: a field this short is under the cap unmeasured. */
const UNMEASURED_FIELD_LENGTH = Math.floor(MAX_STORED_VALUE_BYTES / 3);
const QUOTE = 0x22;

/**
 * The bytes the value of a CSV field takes once COPY has read it: without the quotes around it,
 * with doubled quotes single (csvText quotes every value that starts with a quote).
 */
function storedBytes(field: string): number {
  const bytes = Buffer.byteLength(field);
  if (field.charCodeAt(0) !== QUOTE) return bytes;
  let quotes = 0;
  for (let index = field.indexOf('"'); index >= 0; index = field.indexOf('"', index + 1)) quotes++;
  return bytes - 2 - (quotes - 2) / 2;
}

/**
 * The page's rows as CSV, one field per typed column; `firstRow` is the first one's number in the
 * run. A value past MAX_STORED_VALUE_BYTES fails the run: stored, it would weigh on every query
 * and stream of the table. Fields and lines are joined, not appended
 * with `+=`: appending builds a rope of thousands of pieces per page that the socket write must
 * flatten, which took several times longer than building the lines themselves.
 */
export function csvRows(rows: Record<string, unknown>[], columns: CopyColumn[], firstRow = 1): string {
  if (rows.length === 0) return '';
  const lines = new Array<string>(rows.length + 1);
  const fields = new Array<string>(columns.length);
  for (let index = 0; index < rows.length; index++) {
    const row = rows[index];
    for (let position = 0; position < columns.length; position++) {
      const column = columns[position];
      const field = csvField(row[column.key], column.type);
      if (field.length > UNMEASURED_FIELD_LENGTH && storedBytes(field) > MAX_STORED_VALUE_BYTES) {
        throw new ConnectorFetchError(
          `Row ${firstRow + index}, column "${column.name}": ${VALUE_TOO_LARGE}.`,
        );
      }
      fields[position] = field;
    }
    lines[index] = fields.join(',');
  }
  // The empty last item ends the last line with a newline too.
  lines[rows.length] = '';
  return lines.join('\n');
}
