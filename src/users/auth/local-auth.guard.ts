import { BadRequestException, Injectable, UnauthorizedException } from '@nestjs/common';
import { AuthGuard } from '@nestjs/passport';
import { INVALID_CREDENTIALS_MESSAGE } from './credentials.service';

/**
 * Runs passport-local: the checked user is on the request, not yet logged in. The handler then
 * starts the session or, for an account with two-factor sign-in, the code step (SignInService).
 */
@Injectable()
export class LocalAuthGuard extends AuthGuard('local') {
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
