import { randomUUID } from 'node:crypto';
import { Logger, LogLevel } from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';

const logger = new Logger('HTTP');
const REQUEST_ID = /^[A-Za-z0-9._-]{1,64}$/;

/**
 * Parameter names whose values are secrets, compared with case, punctuation and encoding taken
 * out (api_key, API-KEY, api%5Fkey, access_token, key, ...).
 */
const SECRET_NAME = /(?:key|token|secret|password)$/;

/** Path segments that are secrets themselves: the single-use token of an e-mail verification link. */
const SECRET_PATH_SEGMENT = /(\/verify-email\/)[^/?#;]+/gi;

/**
 * One `name=value` pair of the URL. Separators and `=` also count percent-encoded (%3F, %26, %3B,
 * %3D): a client that encodes them by mistake still sends a key the log must not keep.
 */
const PAIR =
  /([?&;]|%3[fFbB]|%26)((?:(?!%3[dDfFbB]|%26)[^=&;#?])*)((?:=|%3[dD])(?:(?!%26|%3[bB])[^&;#?])*)?/g;

/**
 * Keeps secrets out of the logs: the value of every `name=value` pair in the URL (query or `;`
 * path parameters) whose name reads as a key, token, secret or password is replaced, and so is a
 * verification token in the path.
 */
export function redactUrl(url: string): string {
  return url
    .replace(SECRET_PATH_SEGMENT, '$1[redacted]')
    .replace(PAIR, (pair, separator: string, name: string) =>
      SECRET_NAME.test(normalizedName(name)) ? `${separator}${name}=[redacted]` : pair,
    );
}

function normalizedName(name: string): string {
  let decoded = name;
  try {
    decoded = decodeURIComponent(name.replace(/\+/g, ' '));
  } catch {
    // A malformed escape: judge the name as written.
  }
  return decoded.toLowerCase().replace(/[^a-z]/g, '');
}

/**
 * How loud a finished request is. Server errors warn. Files of the single-page app (everything
 * outside /api that was found), the app's session check on every page (`GET /api/users/session`)
 * and the 401 of `GET /api/users/me` (API clients asking the same) are routine: debug. Everything
 * else: log.
 */
export function requestLogLevel(method: string, url: string, status: number): LogLevel {
  if (status >= 500) return 'warn';
  const path = url.split('?')[0];
  const apiCall = path === '/api' || path.startsWith('/api/');
  if (!apiCall && status < 400) return 'debug';
  if (method === 'GET' && path === '/api/users/me' && status === 401) return 'debug';
  // The app's own check of who is signed in, on every page load (GET users/session).
  if (method === 'GET' && path === '/api/users/session' && status === 200) return 'debug';
  return 'log';
}

/** Gives every request an id (X-Request-Id, echoed back) and logs one line when it finishes. */
export function requestLogging(request: Request, response: Response, next: NextFunction): void {
  const incoming = request.header('x-request-id');
  const requestId = incoming && REQUEST_ID.test(incoming) ? incoming : randomUUID();
  (request as Request & { id: string }).id = requestId;
  response.setHeader('X-Request-Id', requestId);
  const started = process.hrtime.bigint();
  response.on('finish', () => {
    const level = requestLogLevel(request.method, request.originalUrl, response.statusCode);
    // Built only when it will be written: a server logging warnings only skips the line of every success.
    if (!Logger.isLevelEnabled(level)) return;
    const milliseconds = Number(process.hrtime.bigint() - started) / 1e6;
    const line = JSON.stringify({
      requestId,
      method: request.method,
      url: redactUrl(request.originalUrl),
      status: response.statusCode,
      ms: Math.round(milliseconds * 10) / 10,
    });
    if (level === 'warn') logger.warn(line);
    else if (level === 'debug') logger.debug(line);
    else logger.log(line);
  });
  next();
}
