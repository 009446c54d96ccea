import { Controller, Get, Header } from '@nestjs/common';
import { ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { CurrentUser } from '../common/decorators/current-user.decorator';
import type { AuthenticatedUser } from '../common/decorators/current-user.decorator';
import { SessionStateResponse } from './session-state.response';
import { UsersService } from './users.service';

/**
 * How the app learns whether anyone is signed in without a failed request: GET users/me keeps
 * its 401 for API clients, while this answers 200 either way.
 */
@ApiTags('users')
@Controller('users')
export class SessionStateController {
  constructor(private readonly users: UsersService) {}

  /** Holds the API key like users/me: never kept by a browser or proxy cache. */
  @Get('session')
  @ApiOkResponse({ type: SessionStateResponse })
  @Header('Cache-Control', 'no-store')
  async session(@CurrentUser() user: AuthenticatedUser | undefined): Promise<SessionStateResponse> {
    return { user: user ? await this.users.profile(user.id) : null };
  }
}
