import { randomUUID } from 'node:crypto';
import { Logger } from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';

const logger = new Logger('HTTP');
const REQUEST_ID = /^[A-Za-z0-9._-]{1,64}$/;

/** Keeps secrets that BI tools put in URLs (api_key) out of the logs. */
export function redactUrl(url: string): string {
  return url.replace(/([?&](?:api_key|apikey|token)=)[^&#]*/gi, '$1[redacted]');
}

/** Gives every request an id (X-Request-Id, echoed back) and logs one line when it finishes. */
export function requestLogging(request: Request, response: Response, next: NextFunction): void {
  const incoming = request.header('x-request-id');
  const requestId = incoming && REQUEST_ID.test(incoming) ? incoming : randomUUID();
  (request as Request & { id: string }).id = requestId;
  response.setHeader('X-Request-Id', requestId);
  const started = process.hrtime.bigint();
  response.on('finish', () => {
    const milliseconds = Number(process.hrtime.bigint() - started) / 1e6;
    const line = JSON.stringify({
      requestId,
      method: request.method,
      url: redactUrl(request.originalUrl),
      status: response.statusCode,
      ms: Math.round(milliseconds * 10) / 10,
    });
    if (response.statusCode >= 500) logger.warn(line);
    else logger.log(line);
  });
  next();
}
