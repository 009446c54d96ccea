import { ArgumentsHost, Catch, ExceptionFilter, HttpException, HttpStatus, Logger } from '@nestjs/common';
import type { Request, Response } from 'express';
import { isDatabaseUnavailable } from '../../database/sql';
import { SERVICE_UNAVAILABLE_MESSAGE } from '../middleware/database-unavailable.middleware';
import { BODY_TOO_LARGE_MESSAGE } from '../body-limits';
import { TooManyRequestsException } from '../rate-limit/too-many-requests.exception';

export interface ErrorBody {
  error: string;
  message: string;
  statusCode: number;
  errors?: string[];
  /** Where in a submitted SQL text the error points (1-based, in characters). */
  position?: number;
  /** The public listing a query named without holding it: where to get it. */
  listing?: { id: string; title: string; url: string };
}

/**
 * The JSON body parser's refusals in our words: its own texts are the JSON parser's internals
 * ("Unexpected token 'n', ..."), or a bare "request entity too large".
 */
function bodyParserMessage(cause: unknown): string | undefined {
  const type = (cause as { type?: unknown } | undefined)?.type;
  if (type === 'entity.parse.failed') return 'The request body is not valid JSON.';
  if (type === 'entity.too.large') return BODY_TOO_LARGE_MESSAGE;
  return undefined;
}

/**
 * Owns the error shape of the whole API: `{ error, message, statusCode, errors? }`. The web
 * client reads `error`, and `message` for authentication, so both carry the same text.
 */
@Catch()
export class GlobalExceptionFilter implements ExceptionFilter {
  private readonly logger = new Logger(GlobalExceptionFilter.name);

  catch(exception: unknown, host: ArgumentsHost): void {
    const context = host.switchToHttp();
    const response = context.getResponse<Response>();
    const request = context.getRequest<Request>();
    const body = this.toBody(exception, request);
    if (response.headersSent) {
      // A streamed answer already started: the only honest signal left is to cut the connection.
      response.destroy();
      return;
    }
    if (exception instanceof TooManyRequestsException) {
      response.setHeader('Retry-After', String(exception.retryAfterSeconds));
    }
    response.status(body.statusCode).json(body);
  }

  protected toBody(exception: unknown, request: Request): ErrorBody {
    const bodyProblem = exception instanceof HttpException ? bodyParserMessage(exception.cause) : undefined;
    if (bodyProblem)
      return {
        error: bodyProblem,
        message: bodyProblem,
        statusCode: (exception as HttpException).getStatus(),
      };
    if (exception instanceof HttpException) {
      const statusCode = exception.getStatus();
      const payload = exception.getResponse();
      const raw = typeof payload === 'string' ? payload : (payload as { message?: unknown }).message;
      const list = Array.isArray(raw) ? raw.map(String) : undefined;
      const message = list ? list.join('; ') : String(raw ?? exception.message);
      const { position, listing } = typeof payload === 'object' ? (payload as Partial<ErrorBody>) : {};
      return {
        error: message,
        message,
        statusCode,
        ...(list ? { errors: list } : {}),
        ...(typeof position === 'number' ? { position } : {}),
        ...(listing ? { listing } : {}),
      };
    }
    if (isDatabaseUnavailable(exception)) {
      this.logger.warn(`Database unavailable during ${request.method} ${request.path}: ${String(exception)}`);
      const message = SERVICE_UNAVAILABLE_MESSAGE;
      return { error: message, message, statusCode: HttpStatus.SERVICE_UNAVAILABLE };
    }
    this.logger.error(
      `Unhandled error during ${request.method} ${request.path}`,
      exception instanceof Error ? exception.stack : String(exception),
    );
    const message = 'Internal server error';
    return { error: message, message, statusCode: HttpStatus.INTERNAL_SERVER_ERROR };
  }
}
