import { Controller, Get, Query, Res, UseGuards } from '@nestjs/common';
import { ApiOkResponse, ApiProduces, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { CurrentUser } from '../common/decorators/current-user.decorator';
import type { AuthenticatedUser } from '../common/decorators/current-user.decorator';
import { SessionGuard } from '../common/guards/session.guard';
import { AUDIT_EXPORT_CONTENT_TYPES, sendAuditExport } from './audit-export';
import { AuditService } from './audit.service';
import { AuditEventResponse } from './dto/audit-event.response';
import { AuditExportQuery, AuditFilter } from './dto/audit-query.dto';

/** The caller's own audit log (Account screen, Activity log): read and exported. */
@ApiTags('audit')
@Controller('audit/me')
@UseGuards(SessionGuard)
export class AuditController {
  constructor(private readonly audit: AuditService) {}

  @Get()
  @ApiOkResponse({ type: AuditEventResponse, isArray: true, description: 'Newest first' })
  list(@CurrentUser() user: AuthenticatedUser, @Query() filter: AuditFilter): Promise<AuditEventResponse[]> {
    return this.audit.list({ userId: user.id }, filter);
  }

  /** Every matching event, streamed newest first, as CSV (with a header) or JSON Lines. */
  @Get('export')
  @ApiProduces(AUDIT_EXPORT_CONTENT_TYPES.csv, AUDIT_EXPORT_CONTENT_TYPES.jsonl)
  @ApiOkResponse({ description: 'The events as a file' })
  async export(
    @CurrentUser() user: AuthenticatedUser,
    @Query() query: AuditExportQuery,
    @Res() response: Response,
  ): Promise<void> {
    await sendAuditExport(this.audit, { userId: user.id }, query, 'activity-log', response);
  }
}
