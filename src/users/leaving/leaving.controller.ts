import { Body, Controller, Delete, Get, Header, HttpCode, Req, Res, UseGuards } from '@nestjs/common';
import { ApiOkResponse, ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { SESSION_COOKIE } from '../../app.setup';
import { CurrentUser } from '../../common/decorators/current-user.decorator';
import type { AuthenticatedUser } from '../../common/decorators/current-user.decorator';
import { SessionGuard } from '../../common/guards/session.guard';
import { DeleteAccountDto } from '../dto/delete-account.dto';
import { AccountDeleted, AccountExport } from './account-export';
import { LeavingService } from './leaving.service';

@ApiTags('users')
@Controller('users/me')
@UseGuards(SessionGuard)
export class LeavingController {
  constructor(private readonly leaving: LeavingService) {}

  /** The caller's own data as one JSON file to keep. */
  @Get('export')
  @Header('Cache-Control', 'no-store')
  @Header('Content-Disposition', 'attachment; filename="my-data.json"')
  @ApiOkResponse({ type: AccountExport })
  export(@CurrentUser() user: AuthenticatedUser): Promise<AccountExport> {
    return this.leaving.export(user);
  }

  /** Deletes the caller's account after the password check, and ends this session. */
  @Delete()
  @HttpCode(200)
  @ApiOkResponse({ type: AccountDeleted })
  async remove(
    @CurrentUser() user: AuthenticatedUser,
    @Body() input: DeleteAccountDto,
    @Req() request: Request,
    @Res({ passthrough: true }) response: Response,
  ): Promise<AccountDeleted> {
    const answer = await this.leaving.deleteAccount(user, input.password);
    await new Promise<void>((resolve) => request.session.destroy(() => resolve()));
    response.clearCookie(SESSION_COOKIE, { path: '/', httpOnly: true, sameSite: 'lax' });
    return answer;
  }
}
