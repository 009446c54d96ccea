import { Controller, Get, Query, UseGuards } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { OutboxQueryDto } from '../dto/outbox-query.dto';
import { MailOutboxMessage } from '../entities/mail-outbox-message.entity';
import { NonProductionGuard } from './non-production.guard';

export interface OutboxEntry {
  id: string;
  recipient: string;
  subject: string;
  text: string;
  html: string | null;
  /** Every http(s) link in the text, e.g. the verification link. */
  links: string[];
  created_at: string;
}

/** The dev outbox: mail that was kept instead of sent (no SMTP_URL), newest first. Not in production. */
@ApiExcludeController()
@Controller('dev')
@UseGuards(NonProductionGuard)
export class OutboxController {
  constructor(@InjectRepository(MailOutboxMessage) private readonly outbox: Repository<MailOutboxMessage>) {}

  @Get('outbox')
  async list(@Query() query: OutboxQueryDto): Promise<OutboxEntry[]> {
    const messages = await this.outbox
      .createQueryBuilder('message')
      .where('lower(message.recipient) = lower(:email)', { email: query.email.trim() })
      .orderBy('message.createdAt', 'DESC')
      .limit(50)
      .getMany();
    return messages.map((message) => ({
      id: message.id,
      recipient: message.recipient,
      subject: message.subject,
      text: message.text,
      html: message.html,
      links: message.text.match(/https?:\/\/\S+/g) ?? [],
      created_at: message.createdAt.toISOString(),
    }));
  }
}
