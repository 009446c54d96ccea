import { ArgumentsHost, Catch } from '@nestjs/common';
import type { Request, Response } from 'express';
import { GlobalExceptionFilter } from '../common/filters/global-exception.filter';
import { TooManyRequestsException } from '../common/rate-limit/too-many-requests.exception';

const ERROR_CODES: Record<number, string> = {
  400: 'BadRequest',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'NotFound',
  429: 'TooManyRequests',
  500: 'InternalServerError',
  503: 'ServiceUnavailable',
};

/**
 * Errors of the OData service in OData's own shape, `{ "error": { "code", "message" } }`, which
 * BI tools show to the user. Status, message and logging are the API's (GlobalExceptionFilter).
 */
@Catch()
export class ODataExceptionFilter extends GlobalExceptionFilter {
  override catch(exception: unknown, host: ArgumentsHost): void {
    const context = host.switchToHttp();
    const response = context.getResponse<Response>();
    if (response.headersSent) {
      response.destroy();
      return;
    }
    const { statusCode, message } = this.toBody(exception, context.getRequest<Request>());
    if (exception instanceof TooManyRequestsException) {
      response.setHeader('Retry-After', String(exception.retryAfterSeconds));
    }
    response.setHeader('OData-Version', '4.0');
    response
      .status(statusCode)
      .json({ error: { code: ERROR_CODES[statusCode] ?? String(statusCode), message } });
  }
}
