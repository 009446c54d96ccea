import { randomUUID } from 'node:crypto';
import { Logger } from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';

const logger = new Logger('HTTP');
const REQUEST_ID = /^[A-Za-z0-9._-]{1,64}$/;

/** Query parameters whose values are secrets (BI tools put the API key in the URL). */
const SECRET_PARAMETER = /^(?:api_?key|token)(?:\[.*\])?$/i;

/**
 * Keeps secrets out of the logs. Parameter names are compared decoded, the way the query parser
 * reads them, so `api%5Fkey=` or `API_KEY[]=` is redacted as surely as `api_key=`.
 */
export function redactUrl(url: string): string {
  const queryStart = url.indexOf('?');
  if (queryStart === -1) return url;
  const hashStart = url.indexOf('#', queryStart);
  const queryEnd = hashStart === -1 ? url.length : hashStart;
  const pairs = url
    .slice(queryStart + 1, queryEnd)
    .split('&')
    .map((pair) => {
      const equals = pair.indexOf('=');
      const name = equals === -1 ? pair : pair.slice(0, equals);
      return SECRET_PARAMETER.test(decodeName(name)) ? `${name}=[redacted]` : pair;
    });
  return `${url.slice(0, queryStart + 1)}${pairs.join('&')}${url.slice(queryEnd)}`;
}

function decodeName(name: string): string {
  try {
    return decodeURIComponent(name.replace(/\+/g, ' '));
  } catch {
    return name;
  }
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
