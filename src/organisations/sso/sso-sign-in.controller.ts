import { Body, Controller, Get, HttpCode, Param, Post, Req, Res } from '@nestjs/common';
import { ApiFoundResponse, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { DomainVerificationDto } from './dto/sso-token.dto';
import { SsoDomainResponse, SsoStartResponse } from './dto/sso.response';
import { SsoSignInDto } from './dto/sso-sign-in.dto';
import { SsoSettingsService } from './sso-settings.service';
import { SsoSignInService } from './sso-sign-in.service';

/**
 * Single sign-on for people not signed in: starting at an organisation's provider (by its slug
 * or by an address at one of its verified domains), the provider's return, and the link that
 * verifies a domain. Refusals answer JSON with a message, like every other API error.
 */
@ApiTags('auth')
@Controller('auth/sso')
export class SsoSignInController {
  constructor(
    private readonly sso: SsoSignInService,
    private readonly settings: SsoSettingsService,
  ) {}

  /** Answers where to send the browser (a form cannot follow a redirect to another site by fetch). */
  @Post()
  @HttpCode(200)
  @ApiOkResponse({ type: SsoStartResponse })
  async startByEmail(@Req() request: Request, @Body() input: SsoSignInDto): Promise<SsoStartResponse> {
    return { authorization_url: (await this.sso.startByEmail(request, input.email)).href };
  }

  @Post('verify-domain')
  @HttpCode(200)
  @ApiOkResponse({ type: SsoDomainResponse })
  verifyDomain(@Body() input: DomainVerificationDto): Promise<SsoDomainResponse> {
    return this.settings.verifyDomain(input.token);
  }

  /** Declared before `:slug`, so an organisation slugged "callback" starts by e-mail instead. */
  @Get('callback')
  @ApiFoundResponse({ description: 'Signed in: on to the app.' })
  async callback(@Req() request: Request, @Res() response: Response): Promise<void> {
    await this.sso.complete(request, response);
    response.redirect(302, '/');
  }

  @Get(':slug')
  @ApiFoundResponse({ description: 'On to the organisation’s provider.' })
  async startBySlug(
    @Req() request: Request,
    @Param('slug') slug: string,
    @Res() response: Response,
  ): Promise<void> {
    response.redirect(302, (await this.sso.startBySlug(request, slug)).href);
  }
}
