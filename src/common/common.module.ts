import { Global, Module } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '../config/app-config';
import { SecretBox } from './crypto/secret-box';
import { RateLimiterService } from './rate-limit/rate-limiter.service';

/** Cross-cutting services every domain module may inject. */
@Global()
@Module({
  providers: [
    RateLimiterService,
    {
      provide: SecretBox,
      inject: [APP_CONFIG],
      useFactory: (config: AppConfig) => new SecretBox(config.encryptionKey),
    },
  ],
  exports: [RateLimiterService, SecretBox],
})
export class CommonModule {}
