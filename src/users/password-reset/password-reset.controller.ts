import { Body, Controller, HttpCode, Post, Req, Res } from '@nestjs/common';
import { ApiOkResponse, ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { MessageResponse } from '../../common/message.response';
import { TrustedDevicesService } from '../auth/trusted-devices.service';
import { ForgotPasswordDto } from './dto/forgot-password.dto';
import { ResetPasswordDto } from './dto/reset-password.dto';
import { PASSWORD_RESET_MESSAGE, RESET_REQUESTED_MESSAGE } from './password-reset.messages';
import { PasswordResetService } from './password-reset.service';
import { addressKey } from '../../common/client-address';

/** Forgot password: /forgot-password asks for the link, /reset-password?token=… uses it. */
@ApiTags('users')
@Controller('users')
export class PasswordResetController {
  constructor(
    private readonly passwordReset: PasswordResetService,
    private readonly devices: TrustedDevicesService,
  ) {}

  @Post('forgot-password')
  @HttpCode(200)
  @ApiOkResponse({ type: MessageResponse })
  async forgotPassword(@Body() input: ForgotPasswordDto, @Req() request: Request): Promise<MessageResponse> {
    await this.passwordReset.request(input.email, addressKey(request.ip));
    return { message: RESET_REQUESTED_MESSAGE };
  }

  /** The browser that proved the mailbox becomes trusted: strangers' failed logins do not lock it out. */
  @Post('reset-password')
  @HttpCode(200)
  @ApiOkResponse({ type: MessageResponse })
  async resetPassword(
    @Body() input: ResetPasswordDto,
    @Req() request: Request,
    @Res({ passthrough: true }) response: Response,
  ): Promise<MessageResponse> {
    const userId = await this.passwordReset.reset(input.token, input.new_password);
    this.devices.remember(request, response, userId);
    return { message: PASSWORD_RESET_MESSAGE };
  }
}
