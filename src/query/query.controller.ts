import { Body, Controller, Get, Header, HttpCode, Post, Req, Res, UseGuards } from '@nestjs/common';
import { ApiOkResponse, ApiSecurity, ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { CurrentUser } from '../common/decorators/current-user.decorator';
import type { AuthenticatedUser } from '../common/decorators/current-user.decorator';
import { RunQueryDto } from './dto/run-query.dto';
import { QueryCallerGuard } from './query-caller.guard';
import { writeQueryAnswer } from './query-answer';
import { QueryTableResponse } from './query-table.response';
import { FileRows, QueryService } from './query.service';
import { XLSX_MAX_DATA_ROWS } from '../formats/writers/xlsx-writer';
import { answerCompression } from '../formats/writers/parquet-compression';

const SHEET_ROWS: FileRows = {
  most: XLSX_MAX_DATA_ROWS,
  why: 'for format=xlsx, the rows one Excel sheet holds',
};

/** How each format's rows come from the database. */
const OUTPUTS = { json: 'rows', ndjson: 'rows', csv: 'csv', parquet: 'binary', xlsx: 'binary' } as const;

@ApiTags('query')
@ApiSecurity('api_key')
@Controller('query')
@UseGuards(QueryCallerGuard)
export class QueryController {
  constructor(private readonly queries: QueryService) {}

  /** The tables the caller may query, by readable name, with their columns. */
  @Get('tables')
  @ApiOkResponse({ type: QueryTableResponse, isArray: true })
  @Header('Cache-Control', 'no-store')
  tables(@CurrentUser() user: AuthenticatedUser): Promise<QueryTableResponse[]> {
    return this.queries.tables(user);
  }

  /**
   * Runs one read-only statement: JSON `{columns, rows, row_count, truncated, elapsed_ms}`, or the
   * rows streamed as CSV, JSON Lines, Parquet or an Excel workbook.
   */
  @Post()
  @HttpCode(200)
  async run(
    @CurrentUser() user: AuthenticatedUser,
    @Body() input: RunQueryDto,
    @Req() request: Request,
    @Res() response: Response,
  ): Promise<void> {
    // The response closes before it was written only when the client hung up.
    const hangUp = new AbortController();
    const hungUp = () => {
      if (!response.writableFinished) hangUp.abort();
    };
    response.once('close', hungUp);
    const format = input.format ?? 'json';
    const compression = answerCompression(format, input.compression);
    let started;
    try {
      started = await this.queries.start(
        user,
        input.sql,
        input.limit,
        OUTPUTS[format],
        hangUp.signal,
        format === 'xlsx' ? SHEET_ROWS : undefined,
      );
    } catch (error) {
      // Nobody is left to answer: the statement was stopped because its caller went away.
      if (hangUp.signal.aborted) return;
      throw error;
    } finally {
      response.off('close', hungUp);
    }
    await writeQueryAnswer(started, { format, compression }, request, response, (error) =>
      this.queries.failureText(error),
    );
  }
}
