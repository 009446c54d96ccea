import type { Request } from 'express';
import type { StorageEngine } from 'multer';
import { Readable } from 'node:stream';
import { CANONICAL_DIALECT, CsvDialect } from '../../formats/readers/csv-dialect';
import type { AssetColumn } from '../entities/asset.entity';
import { CsvIngestService } from './csv-ingest.service';
import { CsvRejection } from './csv-rejection';
import { DialectChoice, dialectChoiceOf, sheetChoiceOf } from './dialect-choice';
import { convertedToCsv, uploadKindOf } from './converted-upload';
import type { StagedUpload } from './staged-upload';

/** What req.file carries after the upload: the staged table instead of a path on disk. */
export interface UploadedCsv extends Express.Multer.File {
  staged: StagedUpload;
}

const EXPECTED_DATASET = Symbol('expectedCsvDataset');
interface ExpectedDataset {
  columns: AssetColumn[];
  dialect: CsvDialect | null;
}
type RequestWithDataset = Request & { [EXPECTED_DATASET]?: ExpectedDataset };

/**
 * Tells the upload of this request which dataset columns its file must fill (a refresh), and the
 * dialect the dataset's files are written in: set before the body is read, by the guard that has
 * already looked the dataset up.
 */
export function expectColumns(
  request: Request,
  columns: AssetColumn[],
  dialect: CsvDialect | null = null,
): void {
  (request as RequestWithDataset)[EXPECTED_DATASET] = { columns, dialect };
}

/**
 * How to read this request's file: the form's choices (its text fields come before the file);
 * for a refresh, the dataset's kept dialect where the form chooses nothing, and its columns.
 */
function readingOf(request: Request, fileName: string): { into?: AssetColumn[]; choice: DialectChoice } {
  const expected = (request as RequestWithDataset)[EXPECTED_DATASET];
  // A workbook or Parquet file becomes canonical CSV whatever dialect the dataset's CSV files had.
  if (uploadKindOf(fileName) !== 'csv') {
    const { columnTypes } = dialectChoiceOf(request);
    return { into: expected?.columns, choice: { dialect: CANONICAL_DIALECT, columnTypes } };
  }
  const choice = dialectChoiceOf(request);
  if (!expected) return { choice };
  return { into: expected.columns, choice: { dialect: { ...expected.dialect, ...choice.dialect } } };
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
    private readonly maxExpandedBytes: number,
  ) {}

  _handleFile(
    request: Request,
    file: Express.Multer.File,
    callback: (error?: unknown, info?: Partial<UploadedCsv>) => void,
  ): void {
    const stream = file.stream;
    let reading: ReturnType<typeof readingOf>;
    try {
      reading = readingOf(request, file.originalname);
    } catch (error) {
      stream.resume();
      return callback(error);
    }
    const onClose = () => {
      if (!request.readableEnded)
        stream.destroy(new CsvRejection('The upload was interrupted before the file was complete.'));
    };
    const onLimit = () => stream.destroy(this.tooLarge());
    request.once('close', onClose);
    stream.once('limit', onLimit);
    const kind = uploadKindOf(file.originalname);
    // A Parquet file's own column types reach the choice before its first row does.
    const source =
      kind === 'xlsx' || kind === 'parquet'
        ? Readable.from(
            convertedToCsv(kind, stream, sheetChoiceOf(request), reading.choice, this.maxExpandedBytes),
            {
              objectMode: false,
            },
          )
        : stream;
    this.ingest.stage(source, reading.into, reading.choice).then(
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
