import { DynamicModule, Module } from '@nestjs/common';
import { APP_FILTER, APP_PIPE } from '@nestjs/core';
import { ScheduleModule } from '@nestjs/schedule';
import { TypeOrmModule } from '@nestjs/typeorm';
import { ValidationPipe } from '@nestjs/common';
import { AccessModule } from './access/access.module';
import { AssetsModule } from './assets/assets.module';
import { AuditModule } from './audit/audit.module';
import { BlogModule } from './blog/blog.module';
import { GlobalExceptionFilter } from './common/filters/global-exception.filter';
import { CommonModule } from './common/common.module';
import { InputShapePipe } from './common/pipes/input-shape.pipe';
import type { AppConfig } from './config/app-config';
import { ConfigModule } from './config/config.module';
import { PublicConfigModule } from './config/public-config.module';
import { ConnectorsModule } from './connectors/connectors.module';
import { buildDataSourceOptions } from './database/data-source-options';
import { ReadReplicaModule } from './database/read-replica.module';
import { SeedModule } from './database/seed/seed.module';
import { HealthModule } from './health/health.module';
import { ListingsModule } from './listings/listings.module';
import { ODataModule } from './odata/odata.module';
import { OrganisationsModule } from './organisations/organisations.module';
import { SsoModule } from './organisations/sso/sso.module';
import { ProductsModule } from './products/products.module';
import { QueryModule } from './query/query.module';
import { StreamModule } from './stream/stream.module';
import { UsersModule } from './users/users.module';
import { validationException } from './common/pipes/validation-messages';

export interface AppModuleOptions {
  config: AppConfig;
  databaseUrl: string;
}

@Module({})
export class AppModule {
  static forRoot({ config, databaseUrl }: AppModuleOptions): DynamicModule {
    return {
      module: AppModule,
      imports: [
        ConfigModule.forRoot(config),
        TypeOrmModule.forRoot({
          ...buildDataSourceOptions(databaseUrl, config.databasePoolSize, config.databaseTimeouts),
          autoLoadEntities: false,
        }),
        ScheduleModule.forRoot(),
        ReadReplicaModule,
        CommonModule,
        AuditModule,
        HealthModule,
        PublicConfigModule,
        UsersModule,
        OrganisationsModule,
        SsoModule,
        AccessModule,
        AssetsModule,
        ConnectorsModule,
        ProductsModule,
        BlogModule,
        StreamModule,
        ODataModule,
        QueryModule,
        ListingsModule,
        SeedModule,
      ],
      providers: [
        { provide: APP_FILTER, useClass: GlobalExceptionFilter },
        // Before validation: it refuses what the validators themselves could not survive.
        { provide: APP_PIPE, useClass: InputShapePipe },
        {
          provide: APP_PIPE,
          useValue: new ValidationPipe({
            whitelist: true,
            forbidNonWhitelisted: true,
            transform: true,
            exceptionFactory: validationException,
          }),
        },
      ],
    };
  }
}
