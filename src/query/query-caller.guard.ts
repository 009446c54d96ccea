import {
  CanActivate,
  ExecutionContext,
  ForbiddenException,
  Injectable,
  UnauthorizedException,
} from '@nestjs/common';
import type { Request } from 'express';
import { apiKeyOf } from '../stream/api-key.guard';
import { StreamAccessService } from '../stream/stream-access.service';

/**
 * Queries come from the workspace (the session) or from notebooks and BI tools (the personal
 * API key, or a named token with the query scope, in X-API-Key, Authorization: Bearer or api_key).
 */
@Injectable()
export class QueryCallerGuard implements CanActivate {
  constructor(private readonly access: StreamAccessService) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest<Request>();
    if (request.isAuthenticated?.() && request.user) return true;
    const key = apiKeyOf(request);
    if (!key) throw new UnauthorizedException('Please log in to continue');
    const holder = await this.access.findKeyHolder(key);
    if (!holder) throw new UnauthorizedException('Invalid API key');
    if (!holder.scopes.includes('query'))
      throw new ForbiddenException('This API token may not run queries (it lacks the query scope)');
    request.user = holder.user;
    return true;
  }
}

export const PERSONAL_ONLY = "An organisation's token runs queries only: saved queries and history are personal";

/**
 * After QueryCallerGuard, on routes about the caller's own things (saved queries, history): an
 * organisation's token has none, so it is refused rather than shown an empty or failing answer.
 */
@Injectable()
export class PersonalCallerGuard implements CanActivate {
  canActivate(context: ExecutionContext): boolean {
    const user = context.switchToHttp().getRequest<Request>().user as { organisationId?: string } | undefined;
    if (user?.organisationId) throw new ForbiddenException(PERSONAL_ONLY);
    return true;
  }
}
