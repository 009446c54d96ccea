import { randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { unlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { xlsxAsCsv } from '../../formats/readers/xlsx-reader';
import { CsvRejection } from './csv-rejection';

/** The kinds of file a dataset is loaded from. */
export type UploadKind = 'csv' | 'xlsx';

export function uploadKindOf(fileName: string): UploadKind | undefined {
  if (/\.csv$/i.test(fileName)) return 'csv';
  if (/\.xlsx$/i.test(fileName)) return 'xlsx';
  return undefined;
}

/**
 * An uploaded .xlsx workbook as canonical CSV. A zip keeps its directory at the end, so the
 * upload is first written to a private temporary file (removed whatever happens), then its sheet
 * is read row by row. A failure of the upload itself (cut off, too large) passes through as it is.
 */
export async function* workbookAsCsv(upload: Readable, sheet: string | undefined): AsyncGenerator<Buffer> {
  const path = join(tmpdir(), `dataset-upload-${randomUUID()}.xlsx`);
  try {
    await pipeline(upload, createWriteStream(path, { flags: 'wx', mode: 0o600 }));
    try {
      yield* xlsxAsCsv(path, sheet);
    } catch (error) {
      if (error instanceof CsvRejection) throw error;
      throw new CsvRejection('The file is not a readable Excel workbook (.xlsx).', 415);
    }
  } finally {
    await unlink(path).catch(() => undefined);
  }
}
