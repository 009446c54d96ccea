import { Body, Controller, HttpCode, Post, Req, Res, UnauthorizedException, UseGuards } from '@nestjs/common';
import { ApiOkResponse, ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { SESSION_COOKIE } from '../app.setup';
import { CurrentUser } from '../common/decorators/current-user.decorator';
import type { AuthenticatedUser } from '../common/decorators/current-user.decorator';
import { MessageResponse } from '../common/message.response';
import { LocalAuthGuard } from './auth/local-auth.guard';
import { LoginDto } from './dto/login.dto';
import { MeResponse } from './me-response';
import { UsersService } from './users.service';

@ApiTags('users')
@Controller('users')
export class AuthController {
  constructor(private readonly users: UsersService) {}

  /** The guard checks the credentials and starts a fresh session; the body is the logged-in user. */
  @Post('login')
  @HttpCode(200)
  @ApiOkResponse({ type: MeResponse })
  @UseGuards(LocalAuthGuard)
  async login(@Body() _credentials: LoginDto, @CurrentUser() user: AuthenticatedUser): Promise<MeResponse> {
    const profile = await this.users.profile(user.id);
    if (!profile) throw new UnauthorizedException('Please log in to continue');
    return profile;
  }

  /** Ends the session in the store and removes the cookie; harmless when already logged out. */
  @Post('logout')
  @HttpCode(200)
  @ApiOkResponse({ type: MessageResponse })
  async logout(
    @Req() request: Request,
    @Res({ passthrough: true }) response: Response,
  ): Promise<MessageResponse> {
    await new Promise<void>((resolve, reject) =>
      request.logout((error) => (error ? reject(error) : resolve())),
    );
    await new Promise<void>((resolve, reject) =>
      request.session.destroy((error: unknown) => (error ? reject(error) : resolve())),
    );
    response.clearCookie(SESSION_COOKIE, { path: '/', httpOnly: true, sameSite: 'lax' });
    return { message: 'Logged out' };
  }
}
