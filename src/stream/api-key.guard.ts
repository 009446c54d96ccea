import {
  CanActivate,
  ExecutionContext,
  ForbiddenException,
  Injectable,
  SetMetadata,
  UnauthorizedException,
} from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Request } from 'express';
import { sha256Hex } from '../common/crypto/secret-box';
import { RateLimiterService, RateLimitRule } from '../common/rate-limit/rate-limiter.service';
import { StreamAccessService } from './stream-access.service';
import { apiKeyOf } from '../common/api-key-of';

// Where a key is read from lives in common/ (the audit log reads it too); kept importable from here.
export { API_KEY_HEADER, API_KEY_QUERY, apiKeyOf } from '../common/api-key-of';
/** Generous for BI refreshes that page through a table, tight enough to stop a runaway loop. */
export const STREAM_RATE_LIMIT: RateLimitRule = { limit: 120, windowSeconds: 60 };

/** Which per-key budget a route spends: its bucket prefix and its rule. */
export interface ApiKeyRateLimit {
  bucket: string;
  rule: RateLimitRule;
}

const RATE_LIMIT_METADATA = 'apiKeyRateLimit';
const STREAM_BUDGET: ApiKeyRateLimit = { bucket: 'stream', rule: STREAM_RATE_LIMIT };

/** Gives the routes of a controller their own per-key budget instead of the stream links' one. */
export const UseApiKeyRateLimit = (budget: ApiKeyRateLimit) => SetMetadata(RATE_LIMIT_METADATA, budget);

/** The rate-limit bucket of a key: its hash, so the key itself is stored nowhere. */
export function streamRateLimitKey(apiKey: string, bucket = STREAM_BUDGET.bucket): string {
  return `${bucket}:${sha256Hex(apiKey)}`;
}

/**
 * Authenticates stream and OData calls by personal API key or a named token with the stream
 * scope, and rate-limits them per key. The key's owner becomes the request's user; the key is
 * never logged or echoed.
 */
@Injectable()
export class ApiKeyGuard implements CanActivate {
  constructor(
    private readonly access: StreamAccessService,
    private readonly rateLimiter: RateLimiterService,
    private readonly reflector: Reflector,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest<Request>();
    const apiKey = apiKeyOf(request);
    if (!apiKey)
      throw new UnauthorizedException('An API key is required (api_key parameter or X-API-Key header)');
    const holder = await this.access.findKeyHolder(apiKey);
    if (!holder) throw new UnauthorizedException('Invalid API key');
    if (!holder.scopes.includes('stream'))
      throw new ForbiddenException(
        'This API token may not read streams or OData (it lacks the stream scope)',
      );
    const budget =
      this.reflector.getAllAndOverride<ApiKeyRateLimit | undefined>(RATE_LIMIT_METADATA, [
        context.getHandler(),
        context.getClass(),
      ]) ?? STREAM_BUDGET;
    await this.rateLimiter.consume(
      streamRateLimitKey(apiKey, budget.bucket),
      budget.rule,
      'Too many stream requests for this API key, please try again in a minute',
    );
    request.user = holder.user;
    return true;
  }
}
