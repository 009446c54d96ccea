import { randomBytes } from 'node:crypto';
import { BadRequestException, Inject, Injectable, Logger } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { DataSource, MoreThan, Repository } from 'typeorm';
import { sha256Hex } from '../../common/crypto/secret-box';
import { RateLimiterService, RateLimitRule } from '../../common/rate-limit/rate-limiter.service';
import { sqlOn } from '../../database/sql';
import { APP_CONFIG, AppConfig } from '../../config/app-config';
import { ApiKeyService } from '../api-keys/api-key.service';
import { hashPassword } from '../auth/passwords';
import { endCredentials } from '../credentials/end-credentials';
import { MailService } from '../mail/mail.service';
import { UsersService } from '../users.service';
import { PasswordResetToken } from './entities/password-reset-token.entity';
import { passwordResetMail } from './password-reset-mail';
import { INVALID_RESET_LINK_MESSAGE } from './password-reset.messages';
import { AuditService } from '../../audit/audit.service';

export const RESET_LINK_LIFETIME_MS = 60 * 60_000;
/** Reset requests per client address: keeps one client from mailing everybody. */
export const RESET_REQUESTS_PER_IP: RateLimitRule = { limit: 10, windowSeconds: 60 * 60 };
/** Reset mails per address: beyond this the request is answered the same but nothing is sent. */
export const RESET_MAILS_PER_EMAIL: RateLimitRule = { limit: 3, windowSeconds: 60 * 60 };
export const TOO_MANY_RESET_REQUESTS_MESSAGE = 'Too many requests. Please try again later.';

/** Forgot password: a single-use link by e-mail, then a new password that ends every credential. */
@Injectable()
export class PasswordResetService {
  private readonly logger = new Logger(PasswordResetService.name);

  constructor(
    @InjectRepository(PasswordResetToken) private readonly tokens: Repository<PasswordResetToken>,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly users: UsersService,
    private readonly mail: MailService,
    private readonly rateLimiter: RateLimiterService,
    private readonly dataSource: DataSource,
    private readonly apiKeys: ApiKeyService,
    private readonly audit: AuditService,
  ) {}

  /** Mails a link when the address has an account; the caller learns nothing either way. */
  async request(email: string, clientIp: string): Promise<void> {
    await this.rateLimiter.consume(
      `password-reset:ip:${clientIp}`,
      RESET_REQUESTS_PER_IP,
      TOO_MANY_RESET_REQUESTS_MESSAGE,
    );
    const mailsToAddress = await this.rateLimiter.hit(
      `password-reset:email:${email.toLowerCase()}`,
      RESET_MAILS_PER_EMAIL,
    );
    if (mailsToAddress > RESET_MAILS_PER_EMAIL.limit) return;
    const user = await this.users.findByEmail(email);
    if (!user) return;
    const token = randomBytes(32).toString('base64url');
    await this.tokens.insert({
      userId: user.id,
      tokenHash: sha256Hex(token),
      expiresAt: new Date(Date.now() + RESET_LINK_LIFETIME_MS),
    });
    const message = passwordResetMail({
      to: user.email,
      name: user.name,
      appOrigin: this.config.appOrigin,
      token,
    });
    // Not awaited: a slow SMTP server must not make known addresses answer later than unknown ones.
    this.mail
      .send(message)
      .catch((error: unknown) => this.logger.error(`Reset mail failed: ${String(error)}`));
  }

  /**
   * Sets the new password with a valid link; the link, every other link of the account, every
   * session, the API key (a new one is issued), every named token and every trusted-device cookie
   * of the account end. Answers the account's id.
   */
  async reset(token: string, newPassword: string): Promise<string> {
    const tokenHash = sha256Hex(token);
    // Checked before the slow hash, so a dead link costs no hashing.
    const valid = await this.tokens.existsBy({ tokenHash, expiresAt: MoreThan(new Date()) });
    if (!valid) throw new BadRequestException(INVALID_RESET_LINK_MESSAGE);
    const passwordHash = await hashPassword(newPassword);
    const userId = await this.dataSource.transaction(async (manager) => {
      const sql = sqlOn(manager);
      // Deleting the row is what makes the link single-use: of two parallel uses, one wins.
      const { rows } = await sql<{ user_id: string }>(
        `DELETE FROM password_reset_tokens WHERE token_hash = $1 AND expires_at > now() RETURNING user_id`,
        [tokenHash],
      );
      const userId = rows[0]?.user_id;
      if (!userId) throw new BadRequestException(INVALID_RESET_LINK_MESSAGE);
      await sql(`DELETE FROM password_reset_tokens WHERE user_id = $1`, [userId]);
      await this.audit.recordIn(manager, 'password_reset', {}, userId);
      // The link proved the mailbox, so an account not yet verified counts as verified now.
      await sql(
        `UPDATE users SET password_hash = $2, email_verified_at = coalesce(email_verified_at, now()),
                updated_at = now()
          WHERE id = $1`,
        [userId, passwordHash],
      );
      // A reset is what someone does who thinks another is in: every credential ends.
      await endCredentials(sql, userId, { apiKeyAndTokens: true, trustedDevices: true });
      return userId;
    });
    // The owner's BI tools need a key again: a fresh one, shown on the Account screen.
    await this.apiKeys.rotate(userId);
    return userId;
  }
}
