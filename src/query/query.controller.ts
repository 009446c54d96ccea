import { Body, Controller, Get, Header, HttpCode, Post, Req, Res, UseGuards } from '@nestjs/common';
import { ApiOkResponse, ApiSecurity, ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { CurrentUser } from '../common/decorators/current-user.decorator';
import type { AuthenticatedUser } from '../common/decorators/current-user.decorator';
import { RunQueryDto } from './dto/run-query.dto';
import { QueryCallerGuard } from './query-caller.guard';
import { writeQueryAnswer } from './query-answer';
import { QueryTableResponse } from './query-table.response';
import { QueryService } from './query.service';

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
   * rows streamed as CSV or JSON Lines.
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
    let started;
    try {
      started = await this.queries.start(
        user,
        input.sql,
        input.limit,
        format === 'csv' ? 'csv' : 'rows',
        hangUp.signal,
      );
    } finally {
      response.off('close', hungUp);
    }
    await writeQueryAnswer(started, format, request, response, (error) => this.queries.failureText(error));
  }
}
