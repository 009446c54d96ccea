import { Body, Controller, HttpCode, Post, Req, Res } from '@nestjs/common';
import { ApiOkResponse, ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { MessageResponse } from '../../common/message.response';
import { TrustedDevicesService } from '../auth/trusted-devices.service';
import { UnlockLoginDto } from './dto/unlock-login.dto';
import { UNLOCKED_MESSAGE } from './login-unlock.messages';
import { LoginUnlockService } from './login-unlock.service';

/** The mailed link /unlock-login?token=… posts here; under users/login so the device cookie comes along. */
@ApiTags('users')
@Controller('users/login')
export class LoginUnlockController {
  constructor(
    private readonly unlock: LoginUnlockService,
    private readonly devices: TrustedDevicesService,
  ) {}

  /** The browser that proved the mailbox becomes trusted for the account, past the account's lock. */
  @Post('unlock')
  @HttpCode(200)
  @ApiOkResponse({ type: MessageResponse })
  async unlockLogin(
    @Body() input: UnlockLoginDto,
    @Req() request: Request,
    @Res({ passthrough: true }) response: Response,
  ): Promise<MessageResponse> {
    const userId = await this.unlock.redeem(input.token);
    this.devices.remember(request, response, userId);
    return { message: UNLOCKED_MESSAGE };
  }
}
