import { createParamDecorator, ExecutionContext } from '@nestjs/common';
import type { Request } from 'express';

/** What the session (or API key) establishes about the caller. */
export interface AuthenticatedUser {
  id: string;
  email: string;
  name: string;
  proUser: boolean;
  blogEditor: boolean;
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
