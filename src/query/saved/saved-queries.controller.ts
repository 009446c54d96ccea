import {
  Body,
  Controller,
  Delete,
  Get,
  Header,
  HttpCode,
  Param,
  Patch,
  Post,
  UseGuards,
} from '@nestjs/common';
import { ApiOkResponse, ApiSecurity, ApiTags } from '@nestjs/swagger';
import { CurrentUser } from '../../common/decorators/current-user.decorator';
import type { AuthenticatedUser } from '../../common/decorators/current-user.decorator';
import { MessageResponse } from '../../common/message.response';
import { PersonalCallerGuard, QueryCallerGuard } from '../query-caller.guard';
import { SaveQueryDto } from './dto/save-query.dto';
import { UpdateSavedQueryDto } from './dto/update-saved-query.dto';
import { SavedQueriesService } from './saved-queries.service';
import { SavedQueryResponse } from './saved-query.response';

/** The caller's own saved queries (name and SQL), seen by nobody else. */
@ApiTags('query')
@ApiSecurity('api_key')
@Controller('query/saved')
@UseGuards(QueryCallerGuard, PersonalCallerGuard)
export class SavedQueriesController {
  constructor(private readonly saved: SavedQueriesService) {}

  @Get()
  @Header('Cache-Control', 'no-store')
  @ApiOkResponse({ type: SavedQueryResponse, isArray: true, description: 'By name' })
  list(@CurrentUser() user: AuthenticatedUser): Promise<SavedQueryResponse[]> {
    return this.saved.list(user);
  }

  @Post()
  @ApiOkResponse({ type: SavedQueryResponse })
  create(@CurrentUser() user: AuthenticatedUser, @Body() input: SaveQueryDto): Promise<SavedQueryResponse> {
    return this.saved.create(user, input);
  }

  @Get(':id')
  @Header('Cache-Control', 'no-store')
  @ApiOkResponse({ type: SavedQueryResponse })
  get(@CurrentUser() user: AuthenticatedUser, @Param('id') id: string): Promise<SavedQueryResponse> {
    return this.saved.get(user, id);
  }

  @Patch(':id')
  @ApiOkResponse({ type: SavedQueryResponse })
  update(
    @CurrentUser() user: AuthenticatedUser,
    @Param('id') id: string,
    @Body() input: UpdateSavedQueryDto,
  ): Promise<SavedQueryResponse> {
    return this.saved.update(user, id, input);
  }

  @Delete(':id')
  @HttpCode(200)
  @ApiOkResponse({ type: MessageResponse })
  async remove(@CurrentUser() user: AuthenticatedUser, @Param('id') id: string): Promise<MessageResponse> {
    await this.saved.remove(user, id);
    return { message: 'Saved query deleted' };
  }
}
