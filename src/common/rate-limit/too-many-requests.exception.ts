import { HttpException, HttpStatus } from '@nestjs/common';

/** A 429 that knows when the window ends; the error filter sends it as a Retry-After header. */
export class TooManyRequestsException extends HttpException {
  constructor(
    message: string,
    readonly retryAfterSeconds: number,
  ) {
    super(message, HttpStatus.TOO_MANY_REQUESTS);
  }
}
