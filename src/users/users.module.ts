import { Module } from '@nestjs/common';
import { PassportModule } from '@nestjs/passport';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AccessModule } from '../access/access.module';
import { AccountService } from './account.service';
import { ApiKeyController } from './api-keys/api-key.controller';
import { ApiKeyService } from './api-keys/api-key.service';
import { AuthController } from './auth.controller';
import { CredentialsService } from './auth/credentials.service';
import { LocalStrategy } from './auth/local.strategy';
import { SessionSerializer } from './auth/session.serializer';
import { EmailVerificationToken } from './entities/email-verification-token.entity';
import { MailOutboxMessage } from './entities/mail-outbox-message.entity';
import { User } from './entities/user.entity';
import { MailService } from './mail/mail.service';
import { OutboxController } from './mail/outbox.controller';
import { RegistrationController } from './registration.controller';
import { RegistrationService } from './registration.service';
import { UsersController } from './users.controller';
import { SessionStateController } from './session-state.controller';
import { ApiToken } from './entities/api-token.entity';
import { ApiTokensController } from './tokens/api-tokens.controller';
import { ApiTokensService } from './tokens/api-tokens.service';
import { UsersService } from './users.service';

/**
 * Accounts: registration with e-mail verification, passport-local login into Postgres-backed
 * sessions, personal API keys and named tokens, which the stream module's API-key guard checks.
 */
@Module({
  imports: [
    AccessModule,
    PassportModule.register({ session: true }),
    TypeOrmModule.forFeature([User, EmailVerificationToken, MailOutboxMessage, ApiToken]),
  ],
  controllers: [
    RegistrationController,
    AuthController,
    SessionStateController,
    UsersController,
    ApiKeyController,
    ApiTokensController,
    OutboxController,
  ],
  providers: [
    UsersService,
    RegistrationService,
    CredentialsService,
    AccountService,
    ApiKeyService,
    ApiTokensService,
    MailService,
    LocalStrategy,
    SessionSerializer,
  ],
  exports: [UsersService, ApiKeyService, ApiTokensService, MailService],
})
export class UsersModule {}
