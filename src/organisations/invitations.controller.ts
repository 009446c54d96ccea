import { Body, Controller, Delete, Get, HttpCode, Param, Post, UseGuards } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { CurrentUser } from '../common/decorators/current-user.decorator';
import type { AuthenticatedUser } from '../common/decorators/current-user.decorator';
import { SessionGuard } from '../common/guards/session.guard';
import { MessageResponse } from '../common/message.response';
import { InvitationTokenDto } from './dto/invitation-token.dto';
import { InviteMemberDto } from './dto/invite-member.dto';
import { InvitationResponse, OrganisationResponse } from './dto/organisation.response';
import { InvitationsService } from './invitations.service';

/**
 * Invitations: sent, listed and revoked by an organisation's owners and admins; accepted or
 * declined by the logged-in user the e-mail was sent to, with the token from its link.
 */
@ApiTags('organisations')
@Controller('organisations')
@UseGuards(SessionGuard)
export class InvitationsController {
  constructor(private readonly invitations: InvitationsService) {}

  @Post('invitations/accept')
  @HttpCode(200)
  @ApiOkResponse({ type: OrganisationResponse })
  accept(
    @CurrentUser() user: AuthenticatedUser,
    @Body() input: InvitationTokenDto,
  ): Promise<OrganisationResponse> {
    return this.invitations.accept(user, input.token);
  }

  @Post('invitations/decline')
  @HttpCode(200)
  @ApiOkResponse({ type: MessageResponse })
  async decline(
    @CurrentUser() user: AuthenticatedUser,
    @Body() input: InvitationTokenDto,
  ): Promise<MessageResponse> {
    await this.invitations.decline(user, input.token);
    return { message: 'Invitation declined.' };
  }

  @Post(':id/invitations')
  @ApiCreatedResponse({ type: InvitationResponse })
  invite(
    @CurrentUser() user: AuthenticatedUser,
    @Param('id') id: string,
    @Body() input: InviteMemberDto,
  ): Promise<InvitationResponse> {
    return this.invitations.invite(user, id, input);
  }

  @Get(':id/invitations')
  @ApiOkResponse({ type: InvitationResponse, isArray: true })
  pending(@CurrentUser() user: AuthenticatedUser, @Param('id') id: string): Promise<InvitationResponse[]> {
    return this.invitations.pending(user.id, id);
  }

  @Delete(':id/invitations/:invitationId')
  @HttpCode(200)
  @ApiOkResponse({ type: MessageResponse })
  async revoke(
    @CurrentUser() user: AuthenticatedUser,
    @Param('id') id: string,
    @Param('invitationId') invitationId: string,
  ): Promise<MessageResponse> {
    await this.invitations.revoke(user.id, id, invitationId);
    return { message: 'Invitation revoked.' };
  }
}
