import { Controller, Get, Param, Query, Res, UseGuards } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiParam, ApiSecurity, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { CurrentUser } from '../common/decorators/current-user.decorator';
import type { AuthenticatedUser } from '../common/decorators/current-user.decorator';
import { ApiKeyGuard } from './api-key.guard';
import { StreamQueryDto } from './dto/stream-query.dto';
import { StreamService } from './stream.service';

@ApiTags('stream')
@ApiSecurity('api_key')
@Controller('stream')
@UseGuards(ApiKeyGuard)
export class StreamController {
  constructor(private readonly stream: StreamService) {}

  @Get('data')
  @ApiOperation({ summary: 'At most 5,000 rows across every dataset the key owner holds, tagged by dataset' })
  @ApiOkResponse({ description: 'JSON array of flat objects, or CSV with a header row' })
  async general(
    @CurrentUser() user: AuthenticatedUser,
    @Query() query: StreamQueryDto,
    @Res() response: Response,
  ): Promise<void> {
    await this.stream.streamHeldDatasets(user, query, response);
  }

  @Get('data/:sourceId')
  @ApiOperation({
    summary: 'Every row of one dataset or connector table, named by its readable name (e.g. sales_2024)',
  })
  @ApiParam({
    name: 'sourceId',
    description:
      'The readable name; former links work too: dataset id, instance-<connection id>, table-<table id>',
  })
  @ApiOkResponse({ description: 'JSON array of flat objects, or CSV with a header row' })
  async source(
    @CurrentUser() user: AuthenticatedUser,
    @Param('sourceId') sourceId: string,
    @Query() query: StreamQueryDto,
    @Res() response: Response,
  ): Promise<void> {
    await this.stream.streamSource(user, sourceId, query, response);
  }
}
