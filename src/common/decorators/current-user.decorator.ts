import { createParamDecorator, ExecutionContext } from '@nestjs/common';
import type { Request } from 'express';

/** What the session (or API key) establishes about the caller. */
export interface AuthenticatedUser {
  id: string;
  email: string;
  name: string;
  proUser: boolean;
  blogEditor: boolean;
  /**
   * Set when the request comes with an organisation's API token: the caller is the organisation
   * itself (`id` is then the organisation's id), reading what it owns or holds and nothing personal.
   */
  organisationId?: string;
}

/**
 * The logged-in user, or undefined for a visitor. Combine with SessionGuard where login is
 * required; public handlers use it to personalise answers (owned, has_access).
 */
export const CurrentUser = createParamDecorator(
  (_data: unknown, context: ExecutionContext): AuthenticatedUser | undefined => {
    const request = context.switchToHttp().getRequest<Request>();
    return (request.user as AuthenticatedUser | undefined) ?? undefined;
  },
);
