import { Inject, Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { APP_CONFIG, AppConfig } from '../config/app-config';
import { isDatabaseUnavailable, sqlOn } from '../database/sql';
import { MailService } from '../users/mail/mail.service';

/** Seconds between two passes over the notices not yet mailed. */
const MAIL_TICK_MS = 5_000;
/** Notices one pass takes at most. */
const BATCH = 20;
/** A notice whose mail failed this often is given up (it stays on the account page). */
const MAX_ATTEMPTS = 5;
/** How long a pass owns the notices it took: a process dying mid-send frees them after this. */
const CLAIM_SECONDS = 120;

/**
 * Sends the notices not yet mailed, in processes that run background work (SCHEDULER_ENABLED).
 * Notices are taken with a time-limited claim (SKIP LOCKED, so processes never take the same
 * ones) and marked mailed after the transport accepted them: nothing is lost when a process dies.
 */
@Injectable()
export class NotificationMailer implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(NotificationMailer.name);
  private timer?: NodeJS.Timeout;
  private running?: Promise<number>;
  /**
   * Notices mailed whose `mailed_at` could not be written (the database went away between the two,
   * as in a failover): written first on the next pass, so they are not mailed again once their
   * claim runs out.
   */
  private readonly mailedUnrecorded = new Set<string>();
  /** Notices this process claimed but could not mail (the database was away): its claims are given back on the next pass. */
  private readonly claimedUnsent = new Set<string>();

  constructor(
    private readonly dataSource: DataSource,
    private readonly mail: MailService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  onApplicationBootstrap(): void {
    if (!this.config.schedulerEnabled) return;
    this.timer = setInterval(() => void this.sendDue().catch(() => undefined), MAIL_TICK_MS);
    this.timer.unref();
  }

  async onModuleDestroy(): Promise<void> {
    clearInterval(this.timer);
    await this.running?.catch(() => undefined);
  }

  /** Mails every notice due now; answers how many were sent. One run at a time per process. */
  sendDue(): Promise<number> {
    this.running ??= this.sendAll().finally(() => (this.running = undefined));
    return this.running;
  }

  private async sendAll(): Promise<number> {
    let sent = 0;
    for (;;) {
      const pass = await this.pass();
      sent += pass.sent;
      if (pass.claimed < BATCH) return sent;
    }
  }

  /** One batch: how many notices it took, and how many of them went out. */
  private async pass(): Promise<{ claimed: number; sent: number }> {
    await this.recordMailed();
    await this.releaseUnsent();
    const { rows: due } = await sqlOn(this.dataSource)<{
      id: string;
      email: string;
      subject: string;
      text: string;
    }>(
      `UPDATE notifications notice SET claimed_until = now() + make_interval(secs => $1),
              mail_attempts = notice.mail_attempts + 1
         FROM users recipient
        WHERE recipient.id = notice.user_id AND notice.id IN (
          SELECT id FROM notifications
           WHERE mailed_at IS NULL AND mail_attempts < $2 AND (claimed_until IS NULL OR claimed_until < now())
           ORDER BY created_at LIMIT $3 FOR UPDATE SKIP LOCKED)
        RETURNING notice.id, recipient.email, notice.subject, notice.text`,
      [CLAIM_SECONDS, MAX_ATTEMPTS, BATCH],
    );
    let sent = 0;
    for (const notice of due) {
      try {
        await this.mail.send({ to: notice.email, subject: notice.subject, text: notice.text });
      } catch (error) {
        // The claim runs out and a later pass tries again.
        this.logger.warn(`Mailing notice ${notice.id} failed: ${(error as Error).message}`);
        if (isDatabaseUnavailable(error)) this.claimedUnsent.add(notice.id);
        continue;
      }
      sent++;
      this.mailedUnrecorded.add(notice.id);
      await this.recordMailed().catch((error: unknown) =>
        this.logger.warn(`Recording mailed notice ${notice.id} failed: ${(error as Error).message}`),
      );
    }
    return { claimed: due.length, sent };
  }

  /** Gives back this process's claims on notices it could not mail because the database was away. */
  private async releaseUnsent(): Promise<void> {
    if (this.claimedUnsent.size === 0) return;
    const ids = [...this.claimedUnsent];
    await this.dataSource.query(
      `UPDATE notifications SET claimed_until = NULL WHERE id = ANY($1) AND mailed_at IS NULL`,
      [ids],
    );
    for (const id of ids) this.claimedUnsent.delete(id);
  }

  private async recordMailed(): Promise<void> {
    if (this.mailedUnrecorded.size === 0) return;
    const ids = [...this.mailedUnrecorded];
    await this.dataSource.query(
      `UPDATE notifications SET mailed_at = coalesce(mailed_at, now()) WHERE id = ANY($1)`,
      [ids],
    );
    for (const id of ids) this.mailedUnrecorded.delete(id);
  }
}
