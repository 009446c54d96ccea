import type { IncomingMessage } from 'node:http';
import type { NextFunction, Request, Response } from 'express';
import { BODY_TOO_LARGE_MESSAGE, JSON_BODY_LIMIT_BYTES } from '../body-limits';
import { takesMultipart } from './body-types.middleware';

/** Room beside the file in an upload's form: its other fields and the parts' headers. */
const UPLOAD_FORM_ALLOWANCE_BYTES = 2 * 1024 * 1024;
/**
 * A body other than an upload (2 MB at most) must be complete within this many idle periods:
 * 2 minutes by default, time for 2 MB at 17 KB/s, so a client dribbling a byte now and then
 * cannot hold a connection for ever.
 */
const WHOLE_BODY_IDLE_PERIODS = 4;

export const bodyStalledMessage = (idleSeconds: number) =>
  `The request body stopped arriving (nothing for ${idleSeconds} s).`;
export const bodyTooSlowMessage = (seconds: number) =>
  `The request body took too long to arrive (more than ${seconds} s).`;
const uploadTooLargeMessage = (limitBytes: number) =>
  `The request body is too large (at most ${Math.round(limitBytes / (1024 * 1024))} MB).`;

export interface RequestBodyLimits {
  maxUploadBytes: number;
  /** Longest a body may send nothing (REQUEST_BODY_IDLE_SECONDS). */
  idleSeconds: number;
}

function carriesBody(request: Request): boolean {
  const length = Number(request.header('content-length') ?? 0);
  return length > 0 || request.header('transfer-encoding') !== undefined;
}

type Push = IncomingMessage['push'];

/**
 * Measures every request body while it arrives, not once it is complete: a chunked body (no
 * Content-Length to check up front) is refused with 413 the moment it passes its route's limit,
 * and a body that stops arriving with 408. The refusal closes the connection and stops reading
 * the socket, so nothing more of the body is read. Node's own whole-request limit is off (see
 * main.ts); the deadline here is inactivity, as a 1 GB upload on a slow link can rightly take an
 * hour while sending all the time. The count sits on the request's `push`, where Node's HTTP
 * parser hands over each piece of the body: tapping it reads nothing, so the body still reaches
 * whatever parses it later (JSON parser, multer) intact.
 */
export function boundedRequestBodies(limits: RequestBodyLimits) {
  const idleMs = limits.idleSeconds * 1000;
  return (request: Request, response: Response, next: NextFunction): void => {
    if (!carriesBody(request)) return next();
    const upload = Boolean(request.is('multipart/form-data')) && takesMultipart(request.path);
    // Uploads keep multer's own larger limit; this one only ends a body multer would drain.
    const limitBytes = upload ? limits.maxUploadBytes + UPLOAD_FORM_ALLOWANCE_BYTES : JSON_BODY_LIMIT_BYTES;
    const tooLarge = upload ? uploadTooLargeMessage(limitBytes) : BODY_TOO_LARGE_MESSAGE;
    // Bytes that came with the headers were handed over before this middleware ran.
    let received = request.readableLength;
    let refused = false;
    let idleTimer: NodeJS.Timeout | undefined;
    let wholeBodyTimer: NodeJS.Timeout | undefined;

    const stopWatching = () => {
      clearTimeout(idleTimer);
      clearTimeout(wholeBodyTimer);
    };
    const refuse = (status: number, message: string) => {
      refused = true;
      stopWatching();
      if (response.headersSent) {
        request.socket.destroy();
        return;
      }
      // With Connection: close, Node ends the socket once this answer is written.
      response.setHeader('Connection', 'close');
      response.status(status).json({ error: message, message, statusCode: status });
    };
    const restartIdleTimer = () => {
      clearTimeout(idleTimer);
      idleTimer = setTimeout(() => refuse(408, bodyStalledMessage(limits.idleSeconds)), idleMs).unref();
    };

    const push: Push = request.push.bind(request);
    request.push = ((chunk: Buffer | null, encoding?: BufferEncoding) => {
      if (chunk === null) {
        stopWatching();
        return push(chunk, encoding);
      }
      // false makes Node's parser stop reading the socket: the rest of the body stays unread.
      if (refused) return false;
      received += chunk.length;
      if (received > limitBytes) {
        refuse(413, tooLarge);
        return false;
      }
      restartIdleTimer();
      return push(chunk, encoding);
    }) as Push;
    request.once('close', stopWatching);

    if (request.complete) return next();
    restartIdleTimer();
    if (!upload) {
      const wholeBodySeconds = limits.idleSeconds * WHOLE_BODY_IDLE_PERIODS;
      wholeBodyTimer = setTimeout(
        () => refuse(408, bodyTooSlowMessage(wholeBodySeconds)),
        wholeBodySeconds * 1000,
      ).unref();
    }
    next();
  };
}
