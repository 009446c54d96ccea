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
import { EmailVerificationToken } from './entities/email-verification-token.entity';
import { User } from './entities/user.entity';
import { MailModule } from './mail/mail.module';
import { RegistrationController } from './registration.controller';
import { RegistrationService } from './registration.service';
import { UsersController } from './users.controller';
import { UsersService } from './users.service';

/**
 * Accounts: registration with e-mail verification, passport-local login into Postgres-backed
 * sessions, personal API keys. UsersService.findByApiKey serves the stream module's API-key guard.
 */
@Module({
  imports: [
    AccessModule,
    AssetsModule,
    MailModule,
    PassportModule.register({ session: true }),
    TypeOrmModule.forFeature([User, EmailVerificationToken]),
  ],
  controllers: [RegistrationController, AuthController, UsersController, ApiKeyController, LeavingController],
  providers: [
    UsersService,
    RegistrationService,
    CredentialsService,
    AccountService,
    ApiKeyService,
    LeavingService,
    LocalStrategy,
    SessionSerializer,
  ],
  exports: [UsersService, ApiKeyService, MailModule],
})
export class UsersModule {}
