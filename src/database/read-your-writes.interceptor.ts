import { CallHandler, ExecutionContext, Injectable, NestInterceptor } from '@nestjs/common';
import type { Request } from 'express';
import { finalize, Observable } from 'rxjs';
import { READ_METHODS, ReadReplica } from './read-replica.service';

/**
 * After every request that may have written (any method but GET, HEAD, OPTIONS), whether it
 * succeeded or not, notes the time so the caller's next reads come from the primary until the
 * replica shows the write. The session keeps it (before express-session saves it at the end of the
 * answer), so it holds whichever web process serves the next request.
 */
@Injectable()
export class ReadYourWritesInterceptor implements NestInterceptor {
  constructor(private readonly reads: ReadReplica) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const request = context.switchToHttp().getRequest<Request>();
    if (READ_METHODS.has(request.method)) return next.handle();
    return next.handle().pipe(finalize(() => this.reads.noteWrite()));
  }
}
