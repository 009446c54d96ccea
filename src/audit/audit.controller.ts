import { Controller, Get, Query, Res, UseGuards } from '@nestjs/common';
import { ApiOkResponse, ApiProduces, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { CurrentUser } from '../common/decorators/current-user.decorator';
import type { AuthenticatedUser } from '../common/decorators/current-user.decorator';
import { SessionGuard } from '../common/guards/session.guard';
import { auditExportLines } from './audit-export';
import { AuditService } from './audit.service';
import { AuditEventResponse } from './dto/audit-event.response';
import { AuditExportQuery, AuditFilter } from './dto/audit-query.dto';

const CONTENT_TYPES = { csv: 'text/csv; charset=utf-8', jsonl: 'application/jsonl; charset=utf-8' };

/** The caller's own audit log (Account screen, Activity log): read and exported. */
@ApiTags('audit')
@Controller('audit/me')
@UseGuards(SessionGuard)
export class AuditController {
  constructor(private readonly audit: AuditService) {}

  @Get()
  @ApiOkResponse({ type: AuditEventResponse, isArray: true, description: 'Newest first' })
  list(@CurrentUser() user: AuthenticatedUser, @Query() filter: AuditFilter): Promise<AuditEventResponse[]> {
    return this.audit.list(user.id, filter);
  }

  /** Every matching event, streamed newest first, as CSV (with a header) or JSON Lines. */
  @Get('export')
  @ApiProduces(CONTENT_TYPES.csv, CONTENT_TYPES.jsonl)
  @ApiOkResponse({ description: 'The events as a file' })
  async export(
    @CurrentUser() user: AuthenticatedUser,
    @Query() query: AuditExportQuery,
    @Res() response: Response,
  ): Promise<void> {
    const { format = 'csv', ...filter } = query;
    response.setHeader('Content-Type', CONTENT_TYPES[format]);
    response.setHeader('Content-Disposition', `attachment; filename="activity-log.${format}"`);
    response.setHeader('Cache-Control', 'no-store');
    await pipeline(Readable.from(auditExportLines(this.audit.all(user.id, filter), format)), response);
  }
}
