import { Body, Controller, Delete, Get, Header, HttpCode, Param, Post, UseGuards } from '@nestjs/common';
import { ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { AccessGate } from '../../access/access-gate.service';
import { CurrentUser } from '../../common/decorators/current-user.decorator';
import type { AuthenticatedUser } from '../../common/decorators/current-user.decorator';
import { SessionGuard } from '../../common/guards/session.guard';
import { MessageResponse } from '../../common/message.response';
import { ApiTokenResponse, CreatedApiTokenResponse } from './api-token.response';
import { ApiTokensService } from './api-tokens.service';
import { CreateApiTokenDto } from './dto/create-api-token.dto';

/**
 * An organisation's named tokens, which act as the organisation (a BI refresh that outlives its
 * creator's membership). Owners and admins list, create and revoke them; editors and viewers get
 * 403, anyone else 404 as for the organisation's other routes.
 */
@ApiTags('organisations')
@Controller('organisations/:id/tokens')
@UseGuards(SessionGuard)
export class OrganisationTokensController {
  constructor(
    private readonly tokens: ApiTokensService,
    private readonly gate: AccessGate,
  ) {}

  @Get()
  @ApiOkResponse({ type: ApiTokenResponse, isArray: true })
  async list(@CurrentUser() user: AuthenticatedUser, @Param('id') id: string): Promise<ApiTokenResponse[]> {
    await this.gate.requireOrganisationManager(user, id);
    return this.tokens.listForOrganisation(id);
  }

  /** The answer is the only place the token ever appears. */
  @Post()
  @ApiOkResponse({ type: CreatedApiTokenResponse })
  @Header('Cache-Control', 'no-store')
  async create(
    @CurrentUser() user: AuthenticatedUser,
    @Param('id') id: string,
    @Body() input: CreateApiTokenDto,
  ): Promise<CreatedApiTokenResponse> {
    await this.gate.requireOrganisationManager(user, id);
    return this.tokens.createForOrganisation(id, user.id, input);
  }

  @Delete(':tokenId')
  @HttpCode(200)
  @ApiOkResponse({ type: MessageResponse })
  async revoke(
    @CurrentUser() user: AuthenticatedUser,
    @Param('id') id: string,
    @Param('tokenId') tokenId: string,
  ): Promise<MessageResponse> {
    await this.gate.requireOrganisationManager(user, id);
    await this.tokens.revokeForOrganisation(id, tokenId, user.id);
    return { message: 'Token revoked' };
  }
}
