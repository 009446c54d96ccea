import { Controller, Get, Inject } from '@nestjs/common';
import { ApiOkResponse, ApiProperty, ApiTags } from '@nestjs/swagger';
import { APP_CONFIG, AppConfig } from './app-config';

export class PublicConfigResponse {
  @ApiProperty({
    type: String,
    nullable: true,
    description:
      'External contact form embedded by /contact; null when none is configured (CONTACT_FORM_URL)',
  })
  contact_form_url: string | null;
}

export class TermsResponse {
  @ApiProperty({ description: 'The terms of use as Markdown (TERMS_FILE, else the shipped text)' })
  markdown: string;
}

/** Deployment settings the SPA needs and that are safe for anyone to read. Never add secrets here. */
@ApiTags('config')
@Controller('config')
export class PublicConfigController {
  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {}

  @Get('public')
  @ApiOkResponse({ type: PublicConfigResponse, description: 'Public settings of this deployment' })
  getPublicConfig(): PublicConfigResponse {
    return { contact_form_url: this.config.contactFormUrl ?? null };
  }

  @Get('terms')
  @ApiOkResponse({ type: TermsResponse, description: 'The terms of use shown on /terms' })
  getTerms(): TermsResponse {
    return { markdown: this.config.termsMarkdown };
  }
}
