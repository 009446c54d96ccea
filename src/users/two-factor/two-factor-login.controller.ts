import { Body, Controller, HttpCode, Post, Req, Res } from '@nestjs/common';
import { ApiOkResponse, ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { SignInService } from '../auth/sign-in.service';
import { MeResponse } from '../me-response';
import { TwoFactorLoginDto } from './dto/two-factor-login.dto';

/** The second login step, after POST users/login answered that a code is needed. */
@ApiTags('users')
@Controller('users/login')
export class TwoFactorLoginController {
  constructor(private readonly signIn: SignInService) {}

  @Post('two-factor')
  @HttpCode(200)
  @ApiOkResponse({ type: MeResponse })
  complete(
    @Body() input: TwoFactorLoginDto,
    @Req() request: Request,
    @Res({ passthrough: true }) response: Response,
  ): Promise<MeResponse> {
    return this.signIn.afterSecondFactor(request, response, {
      code: input.code,
      recoveryCode: input.recovery_code,
    });
  }
}
