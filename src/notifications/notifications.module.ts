import { Module } from '@nestjs/common';
import { MailModule } from '../users/mail/mail.module';
import { NotificationMailer } from './notification-mailer.service';
import { NotificationsController } from './notifications.controller';
import { NotificationsService } from './notifications.service';

/**
 * Notices to users: written by the modules where things happen (NotificationsService, inside
 * their transactions), listed on the account page, and e-mailed by NotificationMailer.
 */
@Module({
  imports: [MailModule],
  controllers: [NotificationsController],
  providers: [NotificationsService, NotificationMailer],
  exports: [NotificationsService],
})
export class NotificationsModule {}
