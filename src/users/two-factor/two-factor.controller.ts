import { Body, Controller, Get, Header, HttpCode, Post, Req, UseGuards } from '@nestjs/common';
import type { Request } from 'express';
import { ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { CurrentUser } from '../../common/decorators/current-user.decorator';
import type { AuthenticatedUser } from '../../common/decorators/current-user.decorator';
import { SessionGuard } from '../../common/guards/session.guard';
import { MessageResponse } from '../../common/message.response';
import { DisableTwoFactorDto } from './dto/disable-two-factor.dto';
import { EnableTwoFactorDto } from './dto/enable-two-factor.dto';
import {
  RecoveryCodesResponse,
  TwoFactorSetupResponse,
  TwoFactorStatusResponse,
} from './two-factor.responses';
import { TwoFactorService } from './two-factor.service';

/** Two-factor sign-in on /account: status, setup with a QR code, confirm, turn off. */
@ApiTags('users')
@Controller('users/two-factor')
@UseGuards(SessionGuard)
export class TwoFactorController {
  constructor(private readonly twoFactor: TwoFactorService) {}

  @Get()
  @ApiOkResponse({ type: TwoFactorStatusResponse })
  status(@CurrentUser() user: AuthenticatedUser): Promise<TwoFactorStatusResponse> {
    return this.twoFactor.status(user.id);
  }

  /** Holds the secret: never kept by a browser or proxy cache. */
  @Post('setup')
  @HttpCode(200)
  @Header('Cache-Control', 'no-store')
  @ApiOkResponse({ type: TwoFactorSetupResponse })
  setup(@CurrentUser() user: AuthenticatedUser): Promise<TwoFactorSetupResponse> {
    return this.twoFactor.beginSetup(user.id, user.email);
  }

  @Post('enable')
  @HttpCode(200)
  @Header('Cache-Control', 'no-store')
  @ApiOkResponse({ type: RecoveryCodesResponse })
  async enable(
    @CurrentUser() user: AuthenticatedUser,
    @Body() input: EnableTwoFactorDto,
    @Req() request: Request,
  ): Promise<RecoveryCodesResponse> {
    return { recovery_codes: await this.twoFactor.enable(user.id, input.code, request.sessionID) };
  }

  @Post('disable')
  @HttpCode(200)
  @ApiOkResponse({ type: MessageResponse })
  async disable(
    @CurrentUser() user: AuthenticatedUser,
    @Body() input: DisableTwoFactorDto,
  ): Promise<MessageResponse> {
    await this.twoFactor.disable(user.id, input.password, {
      code: input.code,
      recoveryCode: input.recovery_code,
    });
    return { message: 'Two-factor sign-in is off' };
  }
}
