import { Controller, Delete, Get, Header, HttpCode, UseGuards } from '@nestjs/common';
import { ApiOkResponse, ApiSecurity, ApiTags } from '@nestjs/swagger';
import { CurrentUser } from '../../common/decorators/current-user.decorator';
import type { AuthenticatedUser } from '../../common/decorators/current-user.decorator';
import { MessageResponse } from '../../common/message.response';
import { PersonalCallerGuard, QueryCallerGuard } from '../query-caller.guard';
import { QueryHistoryEntryResponse } from './query-history-entry.response';
import { HISTORY_KEPT_PER_USER, QueryHistoryService } from './query-history.service';

@ApiTags('query')
@ApiSecurity('api_key')
@Controller('query/history')
@UseGuards(QueryCallerGuard, PersonalCallerGuard)
export class QueryHistoryController {
  constructor(private readonly history: QueryHistoryService) {}

  /** The caller's own queries, newest first (the last few hundred). */
  @Get()
  @Header('Cache-Control', 'no-store')
  @ApiOkResponse({
    type: QueryHistoryEntryResponse,
    isArray: true,
    description: `At most ${HISTORY_KEPT_PER_USER}, newest first`,
  })
  list(@CurrentUser() user: AuthenticatedUser): Promise<QueryHistoryEntryResponse[]> {
    return this.history.list(user.id);
  }

  @Delete()
  @HttpCode(200)
  @ApiOkResponse({ type: MessageResponse })
  async clear(@CurrentUser() user: AuthenticatedUser): Promise<MessageResponse> {
    await this.history.clear(user.id);
    return { message: 'History cleared' };
  }
}
