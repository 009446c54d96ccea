import type { IncomingHttpHeaders } from 'node:http';

/** Retry-After as milliseconds: delta-seconds (decimals allowed) or an HTTP date. */
export function parseRetryAfter(header: string | string[] | undefined): number | undefined {
  const value = (Array.isArray(header) ? header[0] : header)?.trim();
  if (!value) return undefined;
  if (/^\d+(\.\d+)?$/.test(value)) return Math.ceil(Number(value) * 1000);
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - Date.now());
}

/**
 * X-RateLimit-Reset as milliseconds from now: epoch seconds (GitHub, Twitter) when the number is
 * that large, otherwise seconds to wait (some APIs send a delta).
 */
export function parseRateLimitReset(header: string | string[] | undefined): number | undefined {
  const value = Number((Array.isArray(header) ? header[0] : header)?.trim());
  if (!Number.isFinite(value) || value < 0) return undefined;
  if (value > 1_000_000_000) return Math.max(0, Math.ceil(value * 1000 - Date.now()));
  return Math.ceil(value * 1000);
}

/** How long the upstream asks us to wait before trying again, if it says. */
export function upstreamDelay(headers: IncomingHttpHeaders): number | undefined {
  return parseRetryAfter(headers['retry-after']) ?? parseRateLimitReset(headers['x-ratelimit-reset']);
}
