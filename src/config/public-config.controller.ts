import { Controller, Get, Inject } from '@nestjs/common';
import { ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { APP_CONFIG, AppConfig } from './app-config';

export interface PublicConfigResponse {
  /** External contact form embedded by /contact; null when none is configured (CONTACT_FORM_URL). */
  contact_form_url: string | null;
}

/** Deployment settings the SPA needs and that are safe for anyone to read. Never add secrets here. */
@ApiTags('config')
@Controller('config')
export class PublicConfigController {
  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {}

  @Get('public')
  @ApiOkResponse({
    description: 'Public settings of this deployment, e.g. { "contact_form_url": "https://…" }.',
  })
  getPublicConfig(): PublicConfigResponse {
    return { contact_form_url: this.config.contactFormUrl ?? null };
  }
}
