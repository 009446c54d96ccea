import { randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { unlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { parquetAsCsv } from '../../formats/readers/parquet-reader';
import { xlsxAsCsv } from '../../formats/readers/xlsx-reader';
import type { AssetColumn } from '../entities/asset.entity';
import { CsvRejection } from './csv-rejection';

/** The kinds of file a dataset is loaded from. */
export type UploadKind = 'csv' | 'xlsx' | 'parquet';

export function uploadKindOf(fileName: string): UploadKind | undefined {
  const extension = /\.(csv|xlsx|parquet)$/i.exec(fileName);
  return extension ? (extension[1].toLowerCase() as UploadKind) : undefined;
}

const UNREADABLE = {
  xlsx: 'The file is not a readable Excel workbook (.xlsx).',
  parquet: 'The file is not a readable Parquet file (.parquet).',
};

/**
 * An uploaded .xlsx workbook or .parquet file as canonical CSV. Both keep their directory at the
 * end, so the upload is first written to a private temporary file (removed whatever happens),
 * then read row by row: a workbook's first or named `sheet`; a Parquet file with the column types
 * it declares, set in `types` before the first chunk. A failure of the upload itself (cut off,
 * too large) passes through as it is.
 */
export async function* convertedToCsv(
  kind: 'xlsx' | 'parquet',
  upload: Readable,
  sheet: string | undefined,
  types: { columnTypes?: AssetColumn['type'][] },
): AsyncGenerator<Buffer> {
  const path = join(tmpdir(), `dataset-upload-${randomUUID()}.${kind}`);
  try {
    await pipeline(upload, createWriteStream(path, { flags: 'wx', mode: 0o600 }));
    try {
      yield* kind === 'xlsx' ? xlsxAsCsv(path, sheet) : parquetAsCsv(path, types);
    } catch (error) {
      if (error instanceof CsvRejection) throw error;
      throw new CsvRejection(UNREADABLE[kind], 415);
    }
  } finally {
    await unlink(path).catch(() => undefined);
  }
}
