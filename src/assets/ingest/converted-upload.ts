import { randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { stat, unlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { ByteBudget, ExpansionLimit } from '../../formats/readers/expansion-limit';
import { parquetAsCsv } from '../../formats/readers/parquet-reader';
import { xlsxAsCsv } from '../../formats/readers/xlsx-reader';
import { checkXlsxUnpackedSize } from '../../formats/readers/xlsx-unpacked-size';
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
 * too large) passes through as it is. Neither may unpack to more than `maxExpandedBytes` (nor
 * a hundred times its size) or become more CSV text than that: a decompression bomb is refused
 * before its rows are read, or as soon as its text passes the bound.
 */
export async function* convertedToCsv(
  kind: 'xlsx' | 'parquet',
  upload: Readable,
  sheet: string | undefined,
  types: { columnTypes?: AssetColumn['type'][] },
  maxExpandedBytes: number,
): AsyncGenerator<Buffer> {
  const path = join(tmpdir(), `dataset-upload-${randomUUID()}.${kind}`);
  try {
    await pipeline(upload, createWriteStream(path, { flags: 'wx', mode: 0o600 }));
    try {
      const limit = new ExpansionLimit(kind, (await stat(path)).size, maxExpandedBytes);
      const text = new ByteBudget(maxExpandedBytes, () => limit.tableTooLarge());
      if (kind === 'xlsx') await checkXlsxUnpackedSize(path, limit);
      const chunks = kind === 'xlsx' ? xlsxAsCsv(path, sheet) : parquetAsCsv(path, types, maxExpandedBytes);
      for await (const chunk of chunks) {
        text.spend(chunk.length);
        yield chunk;
      }
    } catch (error) {
      if (error instanceof CsvRejection) throw error;
      throw new CsvRejection(UNREADABLE[kind], 415);
    }
  } finally {
    await unlink(path).catch(() => undefined);
  }
}
