import { BadRequestException, ForbiddenException, Injectable, UnauthorizedException } from '@nestjs/common';
import type { Request, Response } from 'express';
import { DataSource } from 'typeorm';
import type { AuditDetail } from '../../audit/audit-event-type';
import { sqlOn } from '../../database/sql';
import { organisationRequiringSso } from '../../organisations/sso/sso-requirement';
import { PASSWORD_SIGN_IN_REPLACED_BY_SSO } from '../../organisations/sso/sso.messages';
import type { AuthenticatedUser } from '../../common/decorators/current-user.decorator';
import { markLogin } from '../../common/middleware/session-lifetime.middleware';
import { MeResponse } from '../me-response';
import { recordSessionDetails } from '../sessions/session-details';
import { beginPendingLogin, pendingLoginUser } from '../two-factor/pending-login';
import { TwoFactorRequiredResponse } from '../two-factor/two-factor.responses';
import { SecondFactor, TwoFactorService } from '../two-factor/two-factor.service';
import { UsersService } from '../users.service';
import { TrustedDevicesService } from './trusted-devices.service';
import { AuditService } from '../../audit/audit.service';
import { addressKey } from '../../common/client-address';

export const CODE_REQUIRED_MESSAGE = 'Enter the code from your authenticator app';
export const SIGN_IN_EXPIRED_MESSAGE = 'Your sign-in has expired. Please log in again.';

/** The steps after the right password: straight into a session, or through the code step. */
@Injectable()
export class SignInService {
  constructor(
    private readonly users: UsersService,
    private readonly twoFactor: TwoFactorService,
    private readonly devices: TrustedDevicesService,
    private readonly audit: AuditService,
    private readonly dataSource: DataSource,
  ) {}

  async afterPassword(
    request: Request,
    response: Response,
    user: AuthenticatedUser,
  ): Promise<MeResponse | TwoFactorRequiredResponse> {
    // Told only after the right password, like an unverified address: strangers learn nothing.
    const requiring = await organisationRequiringSso(sqlOn(this.dataSource), user.id);
    if (requiring) throw new ForbiddenException(PASSWORD_SIGN_IN_REPLACED_BY_SSO(requiring.name));
    if (await this.twoFactor.isEnabled(user.id)) {
      await beginPendingLogin(request, user.id);
      return { two_factor_required: true, message: CODE_REQUIRED_MESSAGE };
    }
    return this.complete(request, response, user.id);
  }

  /** The code step: only the browser that gave the right password may finish it. */
  async afterSecondFactor(request: Request, response: Response, factor: SecondFactor): Promise<MeResponse> {
    const userId = pendingLoginUser(request);
    if (!userId) throw new UnauthorizedException(SIGN_IN_EXPIRED_MESSAGE);
    if (!factor.code && !factor.recoveryCode) throw new BadRequestException(CODE_REQUIRED_MESSAGE);
    await this.twoFactor.verifyLogin(userId, factor, {
      ip: addressKey(request.ip),
      trustedDevice: this.devices.read(request),
    });
    return this.complete(request, response, userId);
  }

  /**
   * A sign-in through an organisation's OpenID Connect provider, which checked the person (and
   * any second factor of its own): the session starts as after a password, without the app's code step.
   */
  afterSingleSignOn(
    request: Request,
    response: Response,
    userId: string,
    detail: AuditDetail,
  ): Promise<MeResponse> {
    return this.complete(request, response, userId, detail);
  }

  /**
   * passport regenerates the session id on login (a session id known before is useless after);
   * the login time starts the session's absolute lifetime, and this browser becomes trusted.
   */
  private async complete(
    request: Request,
    response: Response,
    userId: string,
    detail: AuditDetail = {},
  ): Promise<MeResponse> {
    const user = await this.users.findById(userId);
    const profile = user && (await this.users.profile(userId));
    if (!user || !profile) throw new UnauthorizedException('Please log in to continue');
    await new Promise<void>((resolve, reject) =>
      request.logIn(user, (error: unknown) => (error ? reject(error) : resolve())),
    );
    markLogin(request.session);
    recordSessionDetails(request);
    await this.audit.record('sign_in', detail, userId);
    this.devices.remember(request, response, userId);
    return profile;
  }
}
