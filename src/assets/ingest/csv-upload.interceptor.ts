import {
  BadRequestException,
  CallHandler,
  ExecutionContext,
  HttpException,
  Inject,
  Injectable,
  NestInterceptor,
  PayloadTooLargeException,
} from '@nestjs/common';
import type { Request, RequestHandler, Response } from 'express';
import multer, { MulterError } from 'multer';
import { catchError, finalize, from, mergeMap, Observable, throwError } from 'rxjs';
import { APP_CONFIG, AppConfig } from '../../config/app-config';
import { CsvIngestService } from './csv-ingest.service';
import { CsvRejection } from './csv-rejection';
import { CsvStorageEngine, UploadedCsv } from './csv-storage-engine';
import { uploadKindOf } from './converted-upload';

/** Room for the multipart envelope and the text fields around the file. */
const FORM_OVERHEAD_BYTES = 1024 * 1024;

/**
 * Runs multer with the streaming CSV storage for `POST assets/upload-csv` and guarantees that a
 * staged table is rolled back whenever the handler does not publish it (validation error, crash).
 */
@Injectable()
export class CsvUploadInterceptor implements NestInterceptor {
  private readonly upload: RequestHandler;
  private readonly limitMb: number;

  constructor(
    ingest: CsvIngestService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {
    this.limitMb = Math.round(config.maxUploadBytes / (1024 * 1024));
    this.upload = multer({
      storage: new CsvStorageEngine(ingest, () => this.tooLarge(), config.maxExpandedUploadBytes),
      limits: { fileSize: config.maxUploadBytes, files: 1, fields: 20, fieldSize: 64 * 1024, parts: 30 },
      fileFilter: (_request, file, accept) => {
        if (uploadKindOf(file.originalname)) accept(null, true);
        else
          accept(
            new CsvRejection(
              'Only CSV files (.csv), Excel workbooks (.xlsx) and Parquet files (.parquet) can be uploaded.',
              415,
            ),
          );
      },
    }).single('file');
  }

  async intercept(context: ExecutionContext, next: CallHandler): Promise<Observable<unknown>> {
    const request = context.switchToHttp().getRequest<Request>();
    const response = context.switchToHttp().getResponse<Response>();
    const declared = Number(request.headers['content-length']);
    if (Number.isFinite(declared) && declared > this.config.maxUploadBytes + FORM_OVERHEAD_BYTES) {
      // Nothing read yet: answer at once and close, instead of swallowing the whole body first.
      response.setHeader('Connection', 'close');
      throw this.tooLargeHttp();
    }
    await new Promise<void>((resolve, reject) => {
      this.upload(request, response, (error?: unknown) =>
        error ? reject(this.toHttpError(error)) : resolve(),
      );
    });
    const staged = (request.file as UploadedCsv | undefined)?.staged;
    if (!staged) return next.handle();
    return next.handle().pipe(
      catchError((error: unknown) => from(staged.discard()).pipe(mergeMap(() => throwError(() => error)))),
      finalize(() => void staged.discard()),
    );
  }

  private tooLarge(): CsvRejection {
    return new CsvRejection(`The file is larger than the upload limit of ${this.limitMb} MB.`, 413);
  }

  private tooLargeHttp(): HttpException {
    return new PayloadTooLargeException(this.tooLarge().message);
  }

  private toHttpError(error: unknown): unknown {
    return uploadHttpError(error, () => this.tooLargeHttp());
  }
}

/** An error of reading a multipart upload (multer, the file's reader) as the HTTP answer it deserves. */
export function uploadHttpError(error: unknown, tooLarge: () => HttpException): unknown {
  if (error instanceof CsvRejection) return new HttpException(error.message, error.status);
  if (error instanceof MulterError) {
    if (error.code === 'LIMIT_FILE_SIZE') return tooLarge();
    if (error.code === 'LIMIT_UNEXPECTED_FILE' || error.code === 'LIMIT_FILE_COUNT') {
      return new BadRequestException('Send exactly one CSV file, in the form field "file".');
    }
    return new BadRequestException(`The upload form is not acceptable: ${error.message}.`);
  }
  if (error instanceof HttpException) return error;
  const message = error instanceof Error ? error.message : '';
  if (/Unexpected end of form|Malformed|Request (aborted|closed)|multipart/i.test(message)) {
    return new BadRequestException('The upload was interrupted or malformed; please try again.');
  }
  return error;
}
