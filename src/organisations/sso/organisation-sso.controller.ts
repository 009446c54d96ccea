import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, UseGuards } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { CurrentUser } from '../../common/decorators/current-user.decorator';
import type { AuthenticatedUser } from '../../common/decorators/current-user.decorator';
import { SessionGuard } from '../../common/guards/session.guard';
import { MessageResponse } from '../../common/message.response';
import { AddDomainDto } from './dto/add-domain.dto';
import { SsoDomainResponse, SsoSettingsResponse } from './dto/sso.response';
import { UpdateSsoDto } from './dto/update-sso.dto';
import { SsoSettingsService } from './sso-settings.service';

/**
 * An organisation's single sign-on settings: owners and admins only (other members 403,
 * everyone else 404 like any organisation they are not in).
 */
@ApiTags('organisations')
@Controller('organisations/:id/sso')
@UseGuards(SessionGuard)
export class OrganisationSsoController {
  constructor(private readonly settings: SsoSettingsService) {}

  @Get()
  @ApiOkResponse({ type: SsoSettingsResponse })
  get(@CurrentUser() user: AuthenticatedUser, @Param('id') id: string): Promise<SsoSettingsResponse> {
    return this.settings.get(user.id, id);
  }

  @Patch()
  @ApiOkResponse({ type: SsoSettingsResponse })
  update(
    @CurrentUser() user: AuthenticatedUser,
    @Param('id') id: string,
    @Body() input: UpdateSsoDto,
  ): Promise<SsoSettingsResponse> {
    return this.settings.update(user.id, id, input);
  }

  @Post('domains')
  @ApiCreatedResponse({ type: SsoDomainResponse })
  addDomain(
    @CurrentUser() user: AuthenticatedUser,
    @Param('id') id: string,
    @Body() input: AddDomainDto,
  ): Promise<SsoDomainResponse> {
    return this.settings.addDomain(user.id, id, input);
  }

  @Delete('domains/:domainId')
  @HttpCode(200)
  @ApiOkResponse({ type: MessageResponse })
  async removeDomain(
    @CurrentUser() user: AuthenticatedUser,
    @Param('id') id: string,
    @Param('domainId') domainId: string,
  ): Promise<MessageResponse> {
    await this.settings.removeDomain(user.id, id, domainId);
    return { message: 'Domain removed.' };
  }
}
