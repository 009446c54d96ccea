import { Body, Controller, HttpCode, Post, Req, Res, UseGuards } from '@nestjs/common';
import { ApiExtraModels, ApiOkResponse, ApiTags, getSchemaPath } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { SESSION_COOKIE } from '../app.setup';
import { CurrentUser } from '../common/decorators/current-user.decorator';
import type { AuthenticatedUser } from '../common/decorators/current-user.decorator';
import { MessageResponse } from '../common/message.response';
import { LocalAuthGuard } from './auth/local-auth.guard';
import { SignInService } from './auth/sign-in.service';
import { LoginDto } from './dto/login.dto';
import { MeResponse } from './me-response';
import { TwoFactorRequiredResponse } from './two-factor/two-factor.responses';
import { AuditService } from '../audit/audit.service';

@ApiTags('users')
@Controller('users')
export class AuthController {
  constructor(
    private readonly signIn: SignInService,
    private readonly audit: AuditService,
  ) {}

  /**
   * The guard checks the credentials; then either a fresh session starts (the body is the
   * logged-in user) or, with two-factor sign-in on, the answer asks for a code (POST
   * users/login/two-factor) and this browser's session waits for it, not logged in.
   */
  @Post('login')
  @HttpCode(200)
  @ApiExtraModels(MeResponse, TwoFactorRequiredResponse)
  @ApiOkResponse({
    schema: {
      oneOf: [{ $ref: getSchemaPath(MeResponse) }, { $ref: getSchemaPath(TwoFactorRequiredResponse) }],
    },
  })
  @UseGuards(LocalAuthGuard)
  login(
    @Body() _credentials: LoginDto,
    @CurrentUser() user: AuthenticatedUser,
    @Req() request: Request,
    @Res({ passthrough: true }) response: Response,
  ): Promise<MeResponse | TwoFactorRequiredResponse> {
    return this.signIn.afterPassword(request, response, user);
  }

  /** Ends the session in the store and removes the cookie; harmless when already logged out. */
  @Post('logout')
  @HttpCode(200)
  @ApiOkResponse({ type: MessageResponse })
  async logout(
    @Req() request: Request,
    @Res({ passthrough: true }) response: Response,
  ): Promise<MessageResponse> {
    if (request.user) await this.audit.record('sign_out');
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
