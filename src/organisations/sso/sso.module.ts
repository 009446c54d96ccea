import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { UsersModule } from '../../users/users.module';
import { OrganisationSsoDomain } from './entities/organisation-sso-domain.entity';
import { OrganisationSso } from './entities/organisation-sso.entity';
import { OrganisationSsoController } from './organisation-sso.controller';
import { SsoSettingsService } from './sso-settings.service';
import { SsoSignInController } from './sso-sign-in.controller';
import { SsoSignInService } from './sso-sign-in.service';

/** Single sign-on with OpenID Connect per organisation: its settings and the sign-in itself. */
@Module({
  imports: [UsersModule, TypeOrmModule.forFeature([OrganisationSso, OrganisationSsoDomain])],
  controllers: [OrganisationSsoController, SsoSignInController],
  providers: [SsoSettingsService, SsoSignInService],
})
export class SsoModule {}
