import { Inject, Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { createTransport, Transporter } from 'nodemailer';
import { Repository } from 'typeorm';
import { APP_CONFIG, AppConfig } from '../../config/app-config';
import { MailOutboxMessage } from '../entities/mail-outbox-message.entity';
import type { MailMessage } from './mail-message';
import { NO_MAIL_IN_PRODUCTION_LOG, registrationNeedsMail } from './mail-required';

/**
 * Sends mail over SMTP when SMTP_URL is set. Without it the message goes to the log and to the
 * mail_outbox table, so a local user (and the tests) can still follow the links it contains.
 */
@Injectable()
export class MailService implements OnModuleDestroy, OnApplicationBootstrap {
  private readonly logger = new Logger(MailService.name);
  private readonly transport?: Transporter;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @InjectRepository(MailOutboxMessage) private readonly outbox: Repository<MailOutboxMessage>,
  ) {
    if (config.smtpUrl) this.transport = createTransport(config.smtpUrl);
  }

  onApplicationBootstrap(): void {
    if (registrationNeedsMail(this.config)) this.logger.error(NO_MAIL_IN_PRODUCTION_LOG);
  }

  async send(message: MailMessage): Promise<void> {
    if (this.transport) {
      await this.transport.sendMail({ from: this.config.mailFrom, ...message });
      this.logger.log(`Mail "${message.subject}" sent over SMTP`);
      return;
    }
    await this.outbox.insert({
      recipient: message.to,
      subject: message.subject,
      text: message.text,
      html: message.html ?? null,
    });
    // Production logs are read by many and kept long: the links in a mail (verification tokens)
    // never go there. In development the log is the only delivery channel at hand.
    if (this.config.isProduction) {
      this.logger.warn(`No SMTP_URL set: mail "${message.subject}" to ${message.to} was not sent`);
      return;
    }
    this.logger.log(
      `No SMTP_URL set; mail to ${message.to} kept in the outbox:\n${message.subject}\n${message.text}`,
    );
  }

  onModuleDestroy(): void {
    this.transport?.close();
  }
}
