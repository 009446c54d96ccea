import { CallHandler, ExecutionContext, Injectable, NestInterceptor } from '@nestjs/common';
import type { Request, Response } from 'express';
import { catchError, concatMap, defer, map, Observable, throwError } from 'rxjs';
import { ReadReplica } from './read-replica.service';

/**
 * After every request, whether it succeeded or not and before its answer is written, raises the
 * caller's read position when the request wrote or read on the primary (see ReadReplica), so the
 * caller's next reads, through whichever web process, never show less than this one did.
 */
@Injectable()
export class ReadPositionInterceptor implements NestInterceptor {
  constructor(private readonly reads: ReadReplica) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const http = context.switchToHttp();
    const request = http.getRequest<Request>();
    const response = http.getResponse<Response>();
    const notePosition = defer(() => this.reads.notePosition(request, response));
    return next.handle().pipe(
      concatMap((value) => notePosition.pipe(map(() => value))),
      catchError((error: unknown) => notePosition.pipe(concatMap(() => throwError(() => error)))),
    );
  }
}
