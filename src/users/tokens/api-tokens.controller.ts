import { Body, Controller, Delete, Get, Header, HttpCode, Param, Post, UseGuards } from '@nestjs/common';
import { ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { CurrentUser } from '../../common/decorators/current-user.decorator';
import type { AuthenticatedUser } from '../../common/decorators/current-user.decorator';
import { SessionGuard } from '../../common/guards/session.guard';
import { MessageResponse } from '../../common/message.response';
import { ApiTokenResponse, CreatedApiTokenResponse } from './api-token.response';
import { ApiTokensService } from './api-tokens.service';
import { CreateApiTokenDto } from './dto/create-api-token.dto';

/** The caller's own named API tokens (Account screen). */
@ApiTags('users')
@Controller('users/tokens')
@UseGuards(SessionGuard)
export class ApiTokensController {
  constructor(private readonly tokens: ApiTokensService) {}

  @Get()
  @ApiOkResponse({ type: ApiTokenResponse, isArray: true })
  list(@CurrentUser() user: AuthenticatedUser): Promise<ApiTokenResponse[]> {
    return this.tokens.list(user.id);
  }

  /** The answer is the only place the token ever appears. */
  @Post()
  @ApiOkResponse({ type: CreatedApiTokenResponse })
  @Header('Cache-Control', 'no-store')
  create(
    @CurrentUser() user: AuthenticatedUser,
    @Body() input: CreateApiTokenDto,
  ): Promise<CreatedApiTokenResponse> {
    return this.tokens.create(user.id, input);
  }

  @Delete(':id')
  @HttpCode(200)
  @ApiOkResponse({ type: MessageResponse })
  async revoke(@CurrentUser() user: AuthenticatedUser, @Param('id') id: string): Promise<MessageResponse> {
    await this.tokens.revoke(user.id, id);
    return { message: 'Token revoked' };
  }
}
