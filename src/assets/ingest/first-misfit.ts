import { dataTable, quoteIdentifier, ROW_ID_COLUMN } from '../../database/data-tables/data-table-names';
import type { Sql } from '../../database/sql';
import type { AssetColumn } from '../entities/asset.entity';
import {
  KIND_BOOLEAN,
  KIND_DATE,
  KIND_INTEGER,
  KIND_NUMERIC,
  KIND_TIMESTAMP,
  valueKinds,
} from './value-kinds';

/** Longest part of a refused value a message quotes. */
export const MISFIT_VALUE_CHARS = 40;

/** Rows read per round while looking for the first value that does not fit. */
const BATCH_ROWS = 10_000;

/** The value kind a column type needs of every value stored in it (text takes any value). */
const KIND_NEEDED: Partial<Record<AssetColumn['type'], number>> = {
  integer: KIND_INTEGER,
  numeric: KIND_NUMERIC,
  boolean: KIND_BOOLEAN,
  date: KIND_DATE,
  timestamptz: KIND_TIMESTAMP,
};

/** Where a value that does not fit was found: its line (the header is line 1) and the value. */
export interface Misfit {
  line: number;
  value: string;
}

/**
 * The first value in file order of `column` in a staged table that a column typed `type` could
 * not hold, judged as the upload judges values; null when every value fits (or the type is not
 * one an upload gives, so there is no such judgement). Runs inside the caller's transaction; a
 * cursor keeps memory flat on a large file.
 */
export async function firstMisfit(
  sql: Sql,
  tableName: string,
  column: string,
  type: AssetColumn['type'],
): Promise<Misfit | null> {
  const needed = KIND_NEEDED[type];
  if (needed === undefined) return null;
  const rowId = quoteIdentifier(ROW_ID_COLUMN);
  await sql(
    `DECLARE first_misfit NO SCROLL CURSOR FOR
       SELECT position, value FROM (
         SELECT row_number() OVER (ORDER BY ${rowId}) AS position, ${quoteIdentifier(column)}::text AS value
           FROM ${dataTable(tableName)}) numbered
        WHERE value IS NOT NULL ORDER BY position`,
  );
  let found: Misfit | null = null;
  let fetched = BATCH_ROWS;
  while (!found && fetched === BATCH_ROWS) {
    const { rows } = await sql<{ position: string; value: string }>(`FETCH ${BATCH_ROWS} FROM first_misfit`);
    fetched = rows.length;
    const misfit = rows.find((row) => {
      const bytes = Buffer.from(row.value);
      return (valueKinds(bytes, 0, bytes.length) & needed) === 0;
    });
    // Data rows count from 1 after the header, which is line 1 as in a spreadsheet.
    if (misfit) found = { line: Number(misfit.position) + 1, value: misfit.value };
  }
  await sql(`CLOSE first_misfit`);
  return found;
}

/** A value as a one-line message quotes it: line breaks and control characters as spaces, cut short. */
export function quotedValue(value: string): string {
  const characters = Array.from(value.replace(/\p{Cc}/gu, ' '));
  const shown = characters.slice(0, MISFIT_VALUE_CHARS).join('');
  return `"${shown}${characters.length > MISFIT_VALUE_CHARS ? '…' : ''}"`;
}
