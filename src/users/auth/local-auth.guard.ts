import { BadRequestException, ExecutionContext, Injectable, UnauthorizedException } from '@nestjs/common';
import { AuthGuard } from '@nestjs/passport';
import type { Request } from 'express';
import { markLogin } from '../../common/middleware/session-lifetime.middleware';
import { INVALID_CREDENTIALS_MESSAGE } from './credentials.service';

/**
 * Runs passport-local, then logs the user into the session. Passport regenerates the session id
 * on login, so a session id known before login (fixation) is useless afterwards. The login time
 * goes into the session for its absolute lifetime.
 */
@Injectable()
export class LocalAuthGuard extends AuthGuard('local') {
  override async canActivate(context: ExecutionContext): Promise<boolean> {
    await super.canActivate(context);
    const request = context.switchToHttp().getRequest<Request>();
    await super.logIn(request);
    // The session's absolute lifetime counts from here.
    markLogin(request.session);
    return true;
  }

  override handleRequest<TUser>(error: unknown, user: TUser, info: { message?: string } | undefined): TUser {
    if (error) throw error;
    // passport-local fails without calling validate when a field is missing or empty.
    if (!user && info?.message === 'Missing credentials') {
      throw new BadRequestException('Email and password are required');
    }
    if (!user) throw new UnauthorizedException(INVALID_CREDENTIALS_MESSAGE);
    return user;
  }
}
