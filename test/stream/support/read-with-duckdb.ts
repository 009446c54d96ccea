import { DuckDBConnection, DuckDBInstance } from '@duckdb/node-api';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * Hands a downloaded file to DuckDB as an analyst would read it: the bytes are written to a
 * temporary file named `fileName` (DuckDB reads files), and `read` gets a connection of a fresh
 * in-memory database and the file's path quoted for SQL.
 */
export async function withDuckDbFile<T>(
  bytes: Buffer,
  fileName: string,
  read: (connection: DuckDBConnection, quotedPath: string) => Promise<T>,
): Promise<T> {
  const folder = await mkdtemp(join(tmpdir(), 'dm-duckdb-'));
  const path = join(folder, fileName);
  const instance = await DuckDBInstance.create(':memory:');
  try {
    await writeFile(path, bytes);
    const connection = await instance.connect();
    try {
      return await read(connection, `'${path}'`);
    } finally {
      connection.closeSync();
    }
  } finally {
    instance.closeSync();
    await rm(folder, { recursive: true, force: true });
  }
}

/**
 * One DuckDB statement over a downloaded file, `$file` standing for its path. Rows come back as
 * DuckDB's JavaScript values (BIGINT as bigint, VARCHAR as string, NULL as null).
 */
export function readWithDuckDb(
  bytes: Buffer,
  fileName: string,
  statement: string,
): Promise<Array<Record<string, unknown>>> {
  return withDuckDbFile(bytes, fileName, async (connection, path) => {
    const reader = await connection.runAndReadAll(statement.replaceAll('$file', path));
    return reader.getRowObjectsJS() as Array<Record<string, unknown>>;
  });
}
