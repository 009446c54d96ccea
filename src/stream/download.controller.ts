import { Controller, Get, Param, Query, Res, UseGuards } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { CurrentUser } from '../common/decorators/current-user.decorator';
import type { AuthenticatedUser } from '../common/decorators/current-user.decorator';
import { SessionGuard } from '../common/guards/session.guard';
import { DownloadQueryDto } from './dto/download-query.dto';
import { StreamService } from './stream.service';

/**
 * Downloads in the browser, through the session: a buyer downloads right after Get or Buy,
 * without first creating the API key that BI tools need for the stream links.
 */
@ApiTags('stream')
@Controller('downloads')
@UseGuards(SessionGuard)
export class DownloadController {
  constructor(private readonly stream: StreamService) {}

  @Get(':assetId')
  @ApiOperation({
    summary: 'Every row of a dataset the logged-in user holds, as a CSV, JSON, Parquet or Excel file',
  })
  @ApiOkResponse({ description: 'CSV with a header row, or a JSON array of flat objects' })
  async download(
    @CurrentUser() user: AuthenticatedUser,
    @Param('assetId') assetId: string,
    @Query() query: DownloadQueryDto,
    @Res() response: Response,
  ): Promise<void> {
    await this.stream.streamSource(
      user,
      assetId,
      { format: query.format, compression: query.compression, offset: 0 },
      response,
    );
  }
}
