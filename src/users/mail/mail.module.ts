import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { MailOutboxMessage } from '../entities/mail-outbox-message.entity';
import { MailService } from './mail.service';
import { OutboxController } from './outbox.controller';

/** The one mail transport (SMTP, or the development outbox), shared by accounts and notifications. */
@Module({
  imports: [TypeOrmModule.forFeature([MailOutboxMessage])],
  controllers: [OutboxController],
  providers: [MailService],
  exports: [MailService],
})
export class MailModule {}
