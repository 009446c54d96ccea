import { Controller, Get, Header, UseGuards } from '@nestjs/common';
import { ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { CurrentUser } from '../common/decorators/current-user.decorator';
import type { AuthenticatedUser } from '../common/decorators/current-user.decorator';
import { SessionGuard } from '../common/guards/session.guard';
import { NoticeView } from './notice-view';
import { NotificationsService } from './notifications.service';

@ApiTags('notifications')
@Controller('notifications')
@UseGuards(SessionGuard)
export class NotificationsController {
  constructor(private readonly notifications: NotificationsService) {}

  /** The caller's own notices (receipts, refunds, archived datasets), newest first. */
  @Get()
  @Header('Cache-Control', 'no-store')
  @ApiOkResponse({ type: [NoticeView] })
  list(@CurrentUser() user: AuthenticatedUser): Promise<NoticeView[]> {
    return this.notifications.forUser(user.id);
  }
}
