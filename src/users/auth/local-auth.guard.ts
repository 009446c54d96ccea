import { BadRequestException, ExecutionContext, Injectable, UnauthorizedException } from '@nestjs/common';
import { AuthGuard } from '@nestjs/passport';
import type { Request } from 'express';
import { INVALID_CREDENTIALS_MESSAGE } from './credentials.service';

/**
 * Runs passport-local, then logs the user into the session. Passport regenerates the session id
 * on login, so a session id known before login (fixation) is useless afterwards.
 */
@Injectable()
export class LocalAuthGuard extends AuthGuard('local') {
  override async canActivate(context: ExecutionContext): Promise<boolean> {
    await super.canActivate(context);
    await super.logIn(context.switchToHttp().getRequest<Request>());
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
