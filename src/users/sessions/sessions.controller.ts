import { Controller, Get, HttpCode, Param, Post, Req, UseGuards } from '@nestjs/common';
import { ApiOkResponse, ApiTags } from '@nestjs/swagger';
import type { Request } from 'express';
import { CurrentUser } from '../../common/decorators/current-user.decorator';
import type { AuthenticatedUser } from '../../common/decorators/current-user.decorator';
import { SessionGuard } from '../../common/guards/session.guard';
import { MessageResponse } from '../../common/message.response';
import { SessionIdParam } from './dto/session-id.param';
import { SessionResponse } from './session-list.response';
import { SessionsService } from './sessions.service';

/** The Sessions list on /account: where the user is logged in, and signing those sessions out. */
@ApiTags('users')
@Controller('users/sessions')
@UseGuards(SessionGuard)
export class SessionsController {
  constructor(private readonly sessions: SessionsService) {}

  @Get()
  @ApiOkResponse({ type: SessionResponse, isArray: true })
  list(@CurrentUser() user: AuthenticatedUser, @Req() request: Request): Promise<SessionResponse[]> {
    return this.sessions.list(user.id, request.sessionID);
  }

  @Post('sign-out-others')
  @HttpCode(200)
  @ApiOkResponse({ type: MessageResponse })
  async signOutOthers(
    @CurrentUser() user: AuthenticatedUser,
    @Req() request: Request,
  ): Promise<MessageResponse> {
    const ended = await this.sessions.signOutOthers(user.id, request.sessionID);
    return {
      message: ended === 1 ? 'Signed out of 1 other session' : `Signed out of ${ended} other sessions`,
    };
  }

  @Post(':id/sign-out')
  @HttpCode(200)
  @ApiOkResponse({ type: MessageResponse })
  async signOut(
    @CurrentUser() user: AuthenticatedUser,
    @Param() params: SessionIdParam,
  ): Promise<MessageResponse> {
    await this.sessions.signOut(user.id, params.id);
    return { message: 'Session signed out' };
  }
}
