import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, UseGuards } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { CurrentUser } from '../common/decorators/current-user.decorator';
import type { AuthenticatedUser } from '../common/decorators/current-user.decorator';
import { SessionGuard } from '../common/guards/session.guard';
import { MessageResponse } from '../common/message.response';
import { ChangeRoleDto } from './dto/change-role.dto';
import { CreateOrganisationDto } from './dto/create-organisation.dto';
import { MemberResponse, OrganisationResponse } from './dto/organisation.response';
import { UpdateOrganisationDto } from './dto/update-organisation.dto';
import { OrganisationsService } from './organisations.service';

/**
 * Organisations and their members. An organisation the caller is not a member of answers 404
 * like one that does not exist; a member whose role is too low gets 403.
 */
@ApiTags('organisations')
@Controller('organisations')
@UseGuards(SessionGuard)
export class OrganisationsController {
  constructor(private readonly organisations: OrganisationsService) {}

  @Post()
  @ApiCreatedResponse({ type: OrganisationResponse })
  create(
    @CurrentUser() user: AuthenticatedUser,
    @Body() input: CreateOrganisationDto,
  ): Promise<OrganisationResponse> {
    return this.organisations.create(user.id, input);
  }

  @Get()
  @ApiOkResponse({ type: OrganisationResponse, isArray: true })
  listMine(@CurrentUser() user: AuthenticatedUser): Promise<OrganisationResponse[]> {
    return this.organisations.listMine(user.id);
  }

  @Get(':id')
  @ApiOkResponse({ type: OrganisationResponse })
  get(@CurrentUser() user: AuthenticatedUser, @Param('id') id: string): Promise<OrganisationResponse> {
    return this.organisations.get(user.id, id);
  }

  @Patch(':id')
  @ApiOkResponse({ type: OrganisationResponse })
  update(
    @CurrentUser() user: AuthenticatedUser,
    @Param('id') id: string,
    @Body() input: UpdateOrganisationDto,
  ): Promise<OrganisationResponse> {
    return this.organisations.update(user.id, id, input);
  }

  @Delete(':id')
  @HttpCode(200)
  @ApiOkResponse({ type: MessageResponse })
  async delete(@CurrentUser() user: AuthenticatedUser, @Param('id') id: string): Promise<MessageResponse> {
    await this.organisations.delete(user.id, id);
    return { message: 'Organisation deleted.' };
  }

  @Get(':id/members')
  @ApiOkResponse({ type: MemberResponse, isArray: true })
  members(@CurrentUser() user: AuthenticatedUser, @Param('id') id: string): Promise<MemberResponse[]> {
    return this.organisations.members(user.id, id);
  }

  @Patch(':id/members/:userId')
  @ApiOkResponse({ type: MemberResponse })
  changeRole(
    @CurrentUser() user: AuthenticatedUser,
    @Param('id') id: string,
    @Param('userId') userId: string,
    @Body() input: ChangeRoleDto,
  ): Promise<MemberResponse> {
    return this.organisations.changeRole(user.id, id, userId, input.role);
  }

  @Delete(':id/members/:userId')
  @HttpCode(200)
  @ApiOkResponse({ type: MessageResponse })
  async removeMember(
    @CurrentUser() user: AuthenticatedUser,
    @Param('id') id: string,
    @Param('userId') userId: string,
  ): Promise<MessageResponse> {
    await this.organisations.removeMember(user.id, id, userId);
    return { message: 'Member removed.' };
  }

  @Post(':id/leave')
  @HttpCode(200)
  @ApiOkResponse({ type: MessageResponse })
  async leave(@CurrentUser() user: AuthenticatedUser, @Param('id') id: string): Promise<MessageResponse> {
    await this.organisations.leave(user.id, id);
    return { message: 'You have left the organisation.' };
  }
}
