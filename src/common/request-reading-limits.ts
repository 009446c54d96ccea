import type { Server } from 'node:http';

/** How long a client may take to send a request's headers (Node allows 60 s). */
export const HEADERS_TIMEOUT_MS = 20_000;

/**
 * Headers must arrive within 20 s. Node's limit on the whole request (5 minutes by default) is
 * off: it would cut a large upload on a slow link that is sending all the while. Bodies have
 * deadlines of their own instead, on inactivity (middleware/request-body-limits.middleware.ts).
 */
export function limitRequestReading(server: Server): void {
  server.headersTimeout = HEADERS_TIMEOUT_MS;
  server.requestTimeout = 0;
}
