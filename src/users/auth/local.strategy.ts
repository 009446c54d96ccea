import { BadRequestException, Injectable, OnModuleDestroy } from '@nestjs/common';
import { PassportStrategy } from '@nestjs/passport';
import type { Request } from 'express';
import passport from 'passport';
import { Strategy } from 'passport-local';
import type { AuthenticatedUser } from '../../common/decorators/current-user.decorator';
import { CredentialsService } from './credentials.service';
import { TrustedDevicesService } from './trusted-devices.service';
import { addressKey } from '../../common/client-address';

const STRATEGY_NAME = 'local';

/** passport-local with the e-mail as user name; the rules live in CredentialsService. */
@Injectable()
export class LocalStrategy extends PassportStrategy(Strategy, STRATEGY_NAME) implements OnModuleDestroy {
  /**
   * passport keeps one strategy per name for the whole process. When an app instance closes
   * (tests, in-process restarts) the newest one still open takes the name back.
   */
  private static readonly open: LocalStrategy[] = [];

  constructor(
    private readonly credentials: CredentialsService,
    private readonly devices: TrustedDevicesService,
  ) {
    super({ usernameField: 'email', passwordField: 'password', passReqToCallback: true });
    LocalStrategy.open.push(this);
  }

  onModuleDestroy(): void {
    LocalStrategy.open.splice(LocalStrategy.open.indexOf(this), 1);
    const successor = LocalStrategy.open.at(-1);
    if (successor) passport.use(STRATEGY_NAME, successor);
  }

  async validate(request: Request, email: unknown, password: unknown): Promise<AuthenticatedUser> {
    if (typeof email !== 'string' || typeof password !== 'string') {
      throw new BadRequestException('Email and password are required');
    }
    return this.credentials.authenticate(email, password, {
      ip: addressKey(request.ip),
      trustedDevice: this.devices.read(request),
    });
  }
}
