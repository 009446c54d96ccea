import { pipeline } from 'node:stream/promises';
import type { Client } from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import type { AssetColumn } from '../entities/asset.entity';
import { datasetTable, quoteIdentifier } from '../dataset-table';
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
}

/** A dataset table: the hidden row id, which keeps file order, then the file's columns. */
export async function createTable(
  client: Client,
  tableName: string,
  columns: AssetColumn[],
  logging: 'logged' | 'unlogged',
): Promise<void> {
  const columnDefinitions = columns.map(
    (column) => `${quoteIdentifier(column.name)} ${sqlTypeFor(column.type)}`,
  );
  await client.query(
    `CREATE ${logging === 'unlogged' ? 'UNLOGGED ' : ''}TABLE ${datasetTable(tableName)} ` +
      `(_row_id bigint GENERATED ALWAYS AS IDENTITY (CACHE 1000), ${columnDefinitions.join(', ')})`,
  );
}

/** Pipes the data bytes into COPY; returns the row count. Errors come back in the uploader's words. */
export async function copyInto(
  client: Client,
  tableName: string,
  file: CopyFormat,
  dataBytes: () => AsyncGenerator<Buffer>,
): Promise<number> {
  const columnList = file.names.map(quoteIdentifier).join(', ');
  const delimiter = file.delimiter === '\t' ? `E'\\t'` : `'${file.delimiter}'`;
  const copy = client.query(
    copyFrom(
      `COPY ${datasetTable(tableName)} (${columnList}) FROM STDIN WITH (FORMAT csv, DELIMITER ${delimiter}, NULL '', FORCE_NULL (${columnList}))`,
    ),
  );
  try {
    await pipeline(dataBytes, copy);
  } catch (error) {
    throw describeCopyError(error, file.headerLines) ?? error;
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
  const setLogged = logging === 'unlogged' ? ['SET LOGGED'] : [];
  if (typed.length === 0 && setLogged.length === 0) return;
  const table = datasetTable(tableName);
  const alter = (column: AssetColumn) => {
    const sqlType = sqlTypeFor(column.type);
    const name = quoteIdentifier(column.name);
    return `ALTER COLUMN ${name} TYPE ${sqlType} USING ${name}::${sqlType}`;
  };
  await client.query('SAVEPOINT retype_all');
  try {
    await client.query(`ALTER TABLE ${table} ${[...setLogged, ...typed.map(alter)].join(', ')}`);
    await client.query('RELEASE SAVEPOINT retype_all');
    return;
  } catch {
    await client.query('ROLLBACK TO SAVEPOINT retype_all');
  }
  if (setLogged.length > 0) await client.query(`ALTER TABLE ${table} SET LOGGED`);
  for (const column of typed) {
    await client.query('SAVEPOINT retype_one');
    try {
      await client.query(`ALTER TABLE ${table} ${alter(column)}`);
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
  if (error instanceof CsvRejection) return false;
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && code.startsWith('22');
}
