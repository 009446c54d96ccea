import { DuckDBInstance } from '@duckdb/node-api';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * Runs one DuckDB statement over a downloaded file, as an analyst would: the bytes are written to
 * a temporary file named by `fileName`, and `$file` in the statement stands for its path. Rows come
 * back as DuckDB's JavaScript values (BIGINT as bigint, VARCHAR as string, NULL as null).
 */
export async function readWithDuckDb(
  bytes: Buffer,
  fileName: string,
  statement: string,
): Promise<Array<Record<string, unknown>>> {
  const folder = await mkdtemp(join(tmpdir(), 'dm-duckdb-'));
  const path = join(folder, fileName);
  const instance = await DuckDBInstance.create(':memory:');
  try {
    await writeFile(path, bytes);
    const connection = await instance.connect();
    const reader = await connection.runAndReadAll(statement.replaceAll('$file', `'${path}'`));
    const answer = reader.getRowObjectsJS();
    connection.closeSync();
    return answer as Array<Record<string, unknown>>;
  } finally {
    instance.closeSync();
    await rm(folder, { recursive: true, force: true });
  }
}
