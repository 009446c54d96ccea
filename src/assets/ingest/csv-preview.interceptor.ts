import {
  CallHandler,
  ExecutionContext,
  Inject,
  Injectable,
  NestInterceptor,
  PayloadTooLargeException,
} from '@nestjs/common';
import type { Request, RequestHandler, Response } from 'express';
import multer from 'multer';
import type { Observable } from 'rxjs';
import { APP_CONFIG, AppConfig } from '../../config/app-config';
import { CsvRejection } from './csv-rejection';
import { CsvSampleStorage } from './csv-sample-storage';
import { uploadHttpError } from './csv-upload.interceptor';

/**
 * Runs multer for `POST assets/upload-preview`: the same form as an upload, of which only the
 * file's first bytes are kept in memory (CsvSampleStorage); nothing is written anywhere.
 */
@Injectable()
export class CsvPreviewInterceptor implements NestInterceptor {
  private readonly upload: RequestHandler;

  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    const limitMb = Math.round(config.maxUploadBytes / (1024 * 1024));
    this.upload = multer({
      storage: new CsvSampleStorage(),
      limits: { fileSize: config.maxUploadBytes, files: 1, fields: 20, fieldSize: 64 * 1024, parts: 30 },
      fileFilter: (_request, file, accept) => {
        if (/\.csv$/i.test(file.originalname)) accept(null, true);
        else accept(new CsvRejection('Only CSV files (.csv) can be uploaded.', 415));
      },
    }).single('file');
    this.tooLarge = () =>
      new PayloadTooLargeException(`The file is larger than the upload limit of ${limitMb} MB.`);
  }

  private readonly tooLarge: () => PayloadTooLargeException;

  async intercept(context: ExecutionContext, next: CallHandler): Promise<Observable<unknown>> {
    const request = context.switchToHttp().getRequest<Request>();
    const response = context.switchToHttp().getResponse<Response>();
    await new Promise<void>((resolve, reject) => {
      this.upload(request, response, (error?: unknown) =>
        error ? reject(uploadHttpError(error, this.tooLarge)) : resolve(),
      );
    });
    return next.handle();
  }
}
