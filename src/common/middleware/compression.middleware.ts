import { constants } from 'node:zlib';
import compression from 'compression';
import type { NextFunction, Request, RequestHandler, Response } from 'express';

/**
 * Every answer is compressed while it streams, by the API process that also turns Postgres' rows
 * into it: a fast level keeps a stream at Postgres' pace (gzip 1 is about five times faster than
 * gzip 6 and still shrinks CSV and JSON rows six- to eightfold). Brotli 2 costs what gzip 1 does
 * and is smaller still.
 */
export const GZIP_LEVEL = 1;
const BROTLI_QUALITY = 2;
/**
 * Compressed bytes handed on at a time: zlib's default (16 KiB) costs a round trip to its thread
 * per 16 KiB of a stream of hundreds of megabytes; 64 KiB goes as one socket write.
 */
const ZLIB_CHUNK_BYTES = 64 * 1024;
/** A stream that pauses (a slow filter, a slow client) still hands over what it has this often. */
const FLUSH_AFTER_MS = 1_000;
/** Compressible text the compressible list does not know. */
const JSON_LINES_TYPE = /^application\/x-ndjson\b/i;

/** Only API answers: the SPA's files go out as the build pre-compressed them (see spa-fallback). */
function isApiPath(path: string): boolean {
  return path === '/api' || path.startsWith('/api/');
}

function shouldCompress(request: Request, response: Response): boolean {
  const type = String(response.getHeader('Content-Type') ?? '');
  return JSON_LINES_TYPE.test(type) || compression.filter(request, response);
}

/**
 * Zlib holds its output until a block fills; an answer written in bursts gets what was written
 * out within FLUSH_AFTER_MS of writing it instead of waiting for the next burst.
 */
function flushWhenIdle(response: Response): void {
  let timer: NodeJS.Timeout | undefined;
  const write = response.write;
  response.write = function writeAndScheduleFlush(this: Response, ...args: Parameters<Response['write']>) {
    if (timer === undefined) {
      timer = setTimeout(() => {
        timer = undefined;
        response.flush();
      }, FLUSH_AFTER_MS);
      timer.unref();
    }
    return write.apply(this, args);
  } as Response['write'];
  response.on('close', () => clearTimeout(timer));
}

/**
 * br when the client accepts it, else gzip, for every API answer whose client sends Accept-Encoding:
 * JSON, streams (CSV, JSON, JSON Lines), OData pages and downloads alike. It compresses as the
 * answer is written, with back-pressure, so a stream keeps flat memory; `Vary: Accept-Encoding`
 * tells caches the answer depends on it. Answers under 1 KiB go out as they are.
 */
export function compressedAnswers(): RequestHandler {
  const compress = compression({
    level: GZIP_LEVEL,
    chunkSize: ZLIB_CHUNK_BYTES,
    brotli: { params: { [constants.BROTLI_PARAM_QUALITY]: BROTLI_QUALITY } },
    filter: shouldCompress,
  });
  return (request: Request, response: Response, next: NextFunction) => {
    if (!isApiPath(request.path)) return next();
    compress(request, response, (error?: unknown) => {
      if (error) return next(error);
      flushWhenIdle(response);
      next();
    });
  };
}
