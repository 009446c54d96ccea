import { Controller, ForbiddenException, Get, Param, Query, Res, UseGuards } from '@nestjs/common';
import { ApiForbiddenResponse, ApiOkResponse, ApiProduces, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { DataSource } from 'typeorm';
import { AUDIT_EXPORT_CONTENT_TYPES, sendAuditExport } from '../audit/audit-export';
import { AuditService } from '../audit/audit.service';
import { AuditEventResponse } from '../audit/dto/audit-event.response';
import { AuditExportQuery, AuditFilter } from '../audit/dto/audit-query.dto';
import { CurrentUser } from '../common/decorators/current-user.decorator';
import type { AuthenticatedUser } from '../common/decorators/current-user.decorator';
import { SessionGuard } from '../common/guards/session.guard';
import { sqlOn } from '../database/sql';
import { roleOf } from './membership-rules';
import { managesMembers } from './organisation-role';
import { AUDIT_LOG_OWNERS_AND_ADMINS_ONLY } from './organisations.messages';

/**
 * An organisation's own audit log, read and exported by its owners and admins in the personal
 * log's format and with its filters. Read-only, as the log is append-only. Other members get 403;
 * non-members 404, as for every organisation route.
 */
@ApiTags('organisations')
@Controller('organisations/:id/audit')
@UseGuards(SessionGuard)
export class OrganisationAuditController {
  constructor(
    private readonly dataSource: DataSource,
    private readonly audit: AuditService,
  ) {}

  @Get()
  @ApiOkResponse({ type: AuditEventResponse, isArray: true, description: 'Newest first' })
  @ApiForbiddenResponse({ description: AUDIT_LOG_OWNERS_AND_ADMINS_ONLY })
  async list(
    @CurrentUser() user: AuthenticatedUser,
    @Param('id') id: string,
    @Query() filter: AuditFilter,
  ): Promise<AuditEventResponse[]> {
    await this.requireReader(user.id, id);
    return this.audit.list({ organisationId: id }, filter);
  }

  /** Every matching event, streamed newest first, as CSV (with a header) or JSON Lines. */
  @Get('export')
  @ApiProduces(AUDIT_EXPORT_CONTENT_TYPES.csv, AUDIT_EXPORT_CONTENT_TYPES.jsonl)
  @ApiOkResponse({ description: 'The events as a file' })
  @ApiForbiddenResponse({ description: AUDIT_LOG_OWNERS_AND_ADMINS_ONLY })
  async export(
    @CurrentUser() user: AuthenticatedUser,
    @Param('id') id: string,
    @Query() query: AuditExportQuery,
    @Res() response: Response,
  ): Promise<void> {
    await this.requireReader(user.id, id);
    await sendAuditExport(this.audit, { organisationId: id }, query, 'organisation-audit-log', response);
  }

  private async requireReader(callerId: string, id: string): Promise<void> {
    const role = await roleOf(sqlOn(this.dataSource), id, callerId);
    if (!managesMembers(role)) throw new ForbiddenException(AUDIT_LOG_OWNERS_AND_ADMINS_ONLY);
  }
}
