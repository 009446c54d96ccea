import { pipeline } from 'node:stream/promises';
import type { Client } from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import {
  alterTable,
  copyFromStdin,
  createDatasetTable,
  TableChange,
} from '../../database/data-tables/data-table-ddl';
import { quoteIdentifier } from '../../database/data-tables/data-table-names';
import { isDataException, sqlOn } from '../../database/sql';
import type { AssetColumn } from '../entities/asset.entity';
import { describeCopyError } from './copy-errors';
import type { Delimiter } from './csv-header';
import { CsvRejection } from './csv-rejection';
import { sqlTypeFor } from './value-kinds';

/** What COPY needs to know about the file besides its bytes. */
export interface CopyFormat {
  /** Column names in file order. */
  names: string[];
  delimiter: Delimiter;
  /** Physical lines the header takes, added to COPY's line numbers in messages. */
  headerLines: number;
  /**
   * Columns of a type other than text in the table COPY fills. A quoted empty field (`""`) is an
   * empty string, as COPY reads it, except in these: an empty string is no number, date or boolean.
   */
  typedNames: string[];
}

/** A dataset table: the hidden row id, which keeps file order, then the file's columns. */
export async function createTable(
  client: Client,
  tableName: string,
  columns: AssetColumn[],
  logging: 'logged' | 'unlogged',
): Promise<void> {
  const definitions = columns.map((column) => ({ name: column.name, sqlType: sqlTypeFor(column.type) }));
  await createDatasetTable(sqlOn(client), tableName, definitions, logging);
}

/**
 * Pipes the data bytes into COPY; returns the row count. Errors come back in the uploader's words,
 * a value that does not fit too when the table has a dataset's `columns` (not guessed ones).
 */
export async function copyInto(
  client: Client,
  tableName: string,
  file: CopyFormat,
  dataBytes: () => AsyncGenerator<Buffer>,
  columns?: AssetColumn[],
): Promise<number> {
  const delimiter = file.delimiter === '\t' ? `E'\\t'` : `'${file.delimiter}'`;
  const forceNull =
    file.typedNames.length > 0 ? `, FORCE_NULL (${file.typedNames.map(quoteIdentifier).join(', ')})` : '';
  const copy = client.query(
    copyFrom(copyFromStdin(tableName, file.names, `FORMAT csv, DELIMITER ${delimiter}${forceNull}`)),
  );
  try {
    await pipeline(dataBytes, copy);
  } catch (error) {
    throw describeCopyError(error, file.headerLines, columns) ?? error;
  }
  return copy.rowCount;
}

/**
 * Retypes the given non-text columns (and makes an unlogged table logged) in one ALTER TABLE,
 * one table rewrite. Should a cast still fail (a value the scanner could not rule out, like
 * 2023-02-30), each column is tried on its own and the ones that do not fit stay text.
 */
export async function convertColumnTypes(
  client: Client,
  tableName: string,
  columns: AssetColumn[],
  logging: 'logged' | 'unlogged',
): Promise<void> {
  const typed = columns.filter((column) => column.type !== 'text');
  const setLogged: TableChange[] = logging === 'unlogged' ? [{ setLogged: true }] : [];
  if (typed.length === 0 && setLogged.length === 0) return;
  const sql = sqlOn(client);
  const retype = (column: AssetColumn): TableChange => {
    const sqlType = sqlTypeFor(column.type);
    return {
      retypeColumn: { name: column.name, sqlType },
      // Loaded as text, a quoted empty field is an empty string; in a typed column it is NULL.
      using: `NULLIF(${quoteIdentifier(column.name)}, '')::${sqlType}`,
    };
  };
  await client.query('SAVEPOINT retype_all');
  try {
    await alterTable(sql, tableName, [...setLogged, ...typed.map(retype)]);
    await client.query('RELEASE SAVEPOINT retype_all');
    return;
  } catch {
    await client.query('ROLLBACK TO SAVEPOINT retype_all');
  }
  await alterTable(sql, tableName, setLogged);
  for (const column of typed) {
    await client.query('SAVEPOINT retype_one');
    try {
      await alterTable(sql, tableName, [retype(column)]);
      await client.query('RELEASE SAVEPOINT retype_one');
    } catch {
      await client.query('ROLLBACK TO SAVEPOINT retype_one');
      column.type = 'text';
    }
  }
}

/**
 * A value COPY could not store in the guessed column type (SQLSTATE class 22, data exception),
 * as opposed to a malformed file, which describeCopyError has already put into words.
 */
export function isTypeMismatch(error: unknown): boolean {
  return !(error instanceof CsvRejection) && isDataException(error);
}
