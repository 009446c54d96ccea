import { CanActivate, ExecutionContext, Injectable, UnauthorizedException } from '@nestjs/common';
import type { Request } from 'express';
import { sha256Hex } from '../common/crypto/secret-box';
import { RateLimiterService, RateLimitRule } from '../common/rate-limit/rate-limiter.service';
import { StreamAccessService } from './stream-access.service';

export const API_KEY_HEADER = 'x-api-key';
export const API_KEY_QUERY = 'api_key';
/** Generous for BI refreshes that page through a table, tight enough to stop a runaway loop. */
export const STREAM_RATE_LIMIT: RateLimitRule = { limit: 120, windowSeconds: 60 };

/** The rate-limit bucket of a key: its hash, so the key itself is stored nowhere. */
export function streamRateLimitKey(apiKey: string): string {
  return `stream:${sha256Hex(apiKey)}`;
}

/** The key from the X-API-Key header (kept out of URLs) or else the api_key query parameter. */
export function apiKeyOf(request: Request): string | undefined {
  const header = request.header(API_KEY_HEADER);
  if (header) return header.trim();
  const query = (request.query as Record<string, unknown>)[API_KEY_QUERY];
  return typeof query === 'string' && query ? query.trim() : undefined;
}

/**
 * Authenticates stream calls by personal API key and rate-limits them per key. The key owner
 * becomes the request's user; the key is never logged or echoed.
 */
@Injectable()
export class ApiKeyGuard implements CanActivate {
  constructor(
    private readonly access: StreamAccessService,
    private readonly rateLimiter: RateLimiterService,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest<Request>();
    const apiKey = apiKeyOf(request);
    if (!apiKey)
      throw new UnauthorizedException('An API key is required (api_key parameter or X-API-Key header)');
    const user = await this.access.findUserByApiKey(apiKey);
    if (!user) throw new UnauthorizedException('Invalid API key');
    await this.rateLimiter.consume(
      streamRateLimitKey(apiKey),
      STREAM_RATE_LIMIT,
      'Too many stream requests for this API key, please try again in a minute',
    );
    request.user = user;
    return true;
  }
}
