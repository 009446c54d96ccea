import type { Request } from 'express';
import type { StorageEngine } from 'multer';

/** Bytes of a file the preview reads: enough rows to type the columns, little enough to answer at once. */
export const PREVIEW_BYTES = 2 * 1024 * 1024;

/** What req.file carries after a preview upload: the file's first bytes, nothing on disk. */
export interface SampledCsv extends Express.Multer.File {
  sample: Buffer;
  /** True when the sample is the whole file. */
  whole: boolean;
}

/**
 * Multer storage for the upload preview: keeps the first PREVIEW_BYTES of the file in memory and
 * lets the rest flow past unread (a client should send only the start, as the web form does).
 */
export class CsvSampleStorage implements StorageEngine {
  _handleFile(
    _request: Request,
    file: Express.Multer.File,
    callback: (error?: unknown, info?: Partial<SampledCsv>) => void,
  ): void {
    const parts: Buffer[] = [];
    let kept = 0;
    let whole = true;
    file.stream.on('data', (chunk: Buffer) => {
      if (kept >= PREVIEW_BYTES) {
        whole = false;
        return;
      }
      const part = chunk.subarray(0, PREVIEW_BYTES - kept);
      if (part.length < chunk.length) whole = false;
      parts.push(part);
      kept += part.length;
    });
    file.stream.once('error', (error) => callback(error));
    file.stream.once('end', () => callback(null, { sample: Buffer.concat(parts), whole }));
  }

  _removeFile(_request: Request, _file: Express.Multer.File, callback: (error: Error | null) => void): void {
    callback(null);
  }
}
