import { CanActivate, Inject, Injectable, NotFoundException } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '../../config/app-config';

/** Development and test helpers do not exist in production: they answer 404 like any unknown path. */
@Injectable()
export class NonProductionGuard implements CanActivate {
  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {}

  canActivate(): boolean {
    if (this.config.isProduction) throw new NotFoundException();
    return true;
  }
}
