import type { Request } from 'express';
import type { StorageEngine } from 'multer';
import type { AssetColumn } from '../entities/asset.entity';
import { CsvIngestService } from './csv-ingest.service';
import { CsvRejection } from './csv-rejection';
import type { StagedUpload } from './staged-upload';

/** What req.file carries after the upload: the staged table instead of a path on disk. */
export interface UploadedCsv extends Express.Multer.File {
  staged: StagedUpload;
}

const EXPECTED_COLUMNS = Symbol('expectedCsvColumns');
type RequestWithColumns = Request & { [EXPECTED_COLUMNS]?: AssetColumn[] };

/**
 * Tells the upload of this request which dataset columns its file must fill (a refresh): set
 * before the body is read, by the guard that has already looked the dataset up.
 */
export function expectColumns(request: Request, columns: AssetColumn[]): void {
  (request as RequestWithColumns)[EXPECTED_COLUMNS] = columns;
}

/**
 * Multer storage that writes nothing to disk: the file part's stream goes straight into the
 * dataset ingest. If the client goes away mid-upload, or the file passes the size limit, the
 * stream is cut and the ingest rolls back.
 */
export class CsvStorageEngine implements StorageEngine {
  constructor(
    private readonly ingest: CsvIngestService,
    private readonly tooLarge: () => CsvRejection,
  ) {}

  _handleFile(
    request: Request,
    file: Express.Multer.File,
    callback: (error?: unknown, info?: Partial<UploadedCsv>) => void,
  ): void {
    const stream = file.stream;
    const onClose = () => {
      if (!request.readableEnded)
        stream.destroy(new CsvRejection('The upload was interrupted before the file was complete.'));
    };
    const onLimit = () => stream.destroy(this.tooLarge());
    request.once('close', onClose);
    stream.once('limit', onLimit);
    this.ingest.stage(stream, (request as RequestWithColumns)[EXPECTED_COLUMNS]).then(
      (staged) => {
        request.off('close', onClose);
        callback(null, { staged });
      },
      (error: unknown) => {
        request.off('close', onClose);
        callback(error);
      },
    );
  }

  _removeFile(_request: Request, file: Express.Multer.File, callback: (error: Error | null) => void): void {
    const staged = (file as Partial<UploadedCsv>).staged;
    if (!staged) return callback(null);
    staged.discard().then(
      () => callback(null),
      (error: Error) => callback(error),
    );
  }
}
