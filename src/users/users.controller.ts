import {
  Body,
  Controller,
  Get,
  Header,
  HttpCode,
  Post,
  Req,
  UnauthorizedException,
  UseGuards,
} from '@nestjs/common';
import { ApiOkResponse, ApiTags } from '@nestjs/swagger';
import type { Request } from 'express';
import { CurrentUser } from '../common/decorators/current-user.decorator';
import type { AuthenticatedUser } from '../common/decorators/current-user.decorator';
import { MessageResponse } from '../common/message.response';
import { SessionGuard } from '../common/guards/session.guard';
import { AccountService } from './account.service';
import { ChangePasswordDto } from './dto/change-password.dto';
import { MeResponse } from './me-response';
import { UsersService } from './users.service';

@ApiTags('users')
@Controller('users')
@UseGuards(SessionGuard)
export class UsersController {
  constructor(
    private readonly users: UsersService,
    private readonly account: AccountService,
  ) {}

  /** Holds the API key: never kept by a browser or proxy cache. */
  @Get('me')
  @ApiOkResponse({ type: MeResponse })
  @Header('Cache-Control', 'no-store')
  async me(@CurrentUser() user: AuthenticatedUser): Promise<MeResponse> {
    const profile = await this.users.profile(user.id);
    if (!profile) throw new UnauthorizedException('Please log in to continue');
    return profile;
  }

  /** Keeps this session logged in and ends every other session of the user. */
  @Post('change-password')
  @HttpCode(200)
  @ApiOkResponse({ type: MessageResponse })
  async changePassword(
    @CurrentUser() user: AuthenticatedUser,
    @Body() input: ChangePasswordDto,
    @Req() request: Request,
  ): Promise<MessageResponse> {
    await this.account.changePassword(
      user.id,
      request.sessionID,
      input.current_password,
      input.new_password,
      input.rotate_api_key,
    );
    return { message: 'Password changed' };
  }
}
