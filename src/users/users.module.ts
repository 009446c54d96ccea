import { Module } from '@nestjs/common';
import { PassportModule } from '@nestjs/passport';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AccessModule } from '../access/access.module';
import { AssetsModule } from '../assets/assets.module';
import { LeavingController } from './leaving/leaving.controller';
import { LeavingService } from './leaving/leaving.service';
import { AccountService } from './account.service';
import { ApiKeyController } from './api-keys/api-key.controller';
import { ApiKeyService } from './api-keys/api-key.service';
import { AuthController } from './auth.controller';
import { CredentialsService } from './auth/credentials.service';
import { LocalStrategy } from './auth/local.strategy';
import { SessionSerializer } from './auth/session.serializer';
import { SignInService } from './auth/sign-in.service';
import { TrustedDevicesService } from './auth/trusted-devices.service';
import { EmailVerificationToken } from './entities/email-verification-token.entity';
import { User } from './entities/user.entity';
import { PasswordResetToken } from './password-reset/entities/password-reset-token.entity';
import { PasswordResetController } from './password-reset/password-reset.controller';
import { PasswordResetService } from './password-reset/password-reset.service';
import { MailModule } from './mail/mail.module';
import { RegistrationController } from './registration.controller';
import { RegistrationService } from './registration.service';
import { SessionsController } from './sessions/sessions.controller';
import { SessionsService } from './sessions/sessions.service';
import { TwoFactorCredential } from './two-factor/entities/two-factor-credential.entity';
import { TwoFactorRecoveryCode } from './two-factor/entities/two-factor-recovery-code.entity';
import { ONE_TIME_CODE_STRATEGY } from './two-factor/one-time-code.strategy';
import { TotpStrategy } from './two-factor/totp.strategy';
import { TwoFactorLoginController } from './two-factor/two-factor-login.controller';
import { TwoFactorController } from './two-factor/two-factor.controller';
import { TwoFactorService } from './two-factor/two-factor.service';
import { UsersController } from './users.controller';
import { SessionStateController } from './session-state.controller';
import { ApiToken } from './entities/api-token.entity';
import { ApiTokensController } from './tokens/api-tokens.controller';
import { OrganisationTokensController } from './tokens/organisation-tokens.controller';
import { ApiTokensService } from './tokens/api-tokens.service';
import { UsersService } from './users.service';
import { LoginUnlockToken } from './login-unlock/entities/login-unlock-token.entity';
import { LoginUnlockController } from './login-unlock/login-unlock.controller';
import { LoginUnlockService } from './login-unlock/login-unlock.service';

/**
 * Accounts: registration with e-mail verification, passport-local login into Postgres-backed
 * sessions (with two-factor sign-in and a list of one's sessions), password reset, personal API keys and
 * named tokens, which the stream module's API-key guard checks.
 */
@Module({
  imports: [
    AccessModule,
    AssetsModule,
    MailModule,
    PassportModule.register({ session: true }),
    TypeOrmModule.forFeature([
      User,
      EmailVerificationToken,
      PasswordResetToken,
      TwoFactorCredential,
      TwoFactorRecoveryCode,
      ApiToken,
      LoginUnlockToken,
    ]),
  ],
  controllers: [
    RegistrationController,
    AuthController,
    SessionStateController,
    UsersController,
    ApiKeyController,
    ApiTokensController,
    OrganisationTokensController,
    PasswordResetController,
    TwoFactorController,
    TwoFactorLoginController,
    LoginUnlockController,
    SessionsController,
    LeavingController,
  ],
  providers: [
    UsersService,
    RegistrationService,
    CredentialsService,
    LoginUnlockService,
    AccountService,
    ApiKeyService,
    ApiTokensService,
    LeavingService,
    LocalStrategy,
    SessionSerializer,
    TrustedDevicesService,
    SignInService,
    PasswordResetService,
    TwoFactorService,
    { provide: ONE_TIME_CODE_STRATEGY, useClass: TotpStrategy },
    SessionsService,
  ],
  exports: [UsersService, ApiKeyService, ApiTokensService, MailModule, SignInService],
})
export class UsersModule {}
