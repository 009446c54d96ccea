import { randomBytes } from 'node:crypto';
import { BadRequestException, Inject, Injectable, Logger } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { sha256Hex } from '../../common/crypto/secret-box';
import { RateLimiterService, RateLimitRule } from '../../common/rate-limit/rate-limiter.service';
import { APP_CONFIG, AppConfig } from '../../config/app-config';
import { User } from '../entities/user.entity';
import { MailService } from '../mail/mail.service';
import { LoginUnlockToken } from './entities/login-unlock-token.entity';
import { loginUnlockMail } from './login-unlock-mail';
import { INVALID_UNLOCK_LINK_MESSAGE } from './login-unlock.messages';

export const UNLOCK_LINK_LIFETIME_MS = 60 * 60_000;
/**
 * One unlock mail per account per lock window: every refused attempt says a link was sent, but
 * strangers hammering a locked account must not flood its owner's inbox.
 */
export const UNLOCK_MAILS_PER_USER: RateLimitRule = { limit: 1, windowSeconds: 15 * 60 };

/**
 * The way back into a locked account that strangers cannot block: a single-use link mailed to the
 * owner. The browser that follows it becomes trusted for the account, and a trusted browser
 * counts only its own failures, so the account-wide lock no longer applies to it.
 */
@Injectable()
export class LoginUnlockService {
  private readonly logger = new Logger(LoginUnlockService.name);

  constructor(
    @InjectRepository(LoginUnlockToken) private readonly tokens: Repository<LoginUnlockToken>,
    @InjectRepository(User) private readonly users: Repository<User>,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly mail: MailService,
    private readonly rateLimiter: RateLimiterService,
  ) {}

  /** Mails the owner a fresh link, unless one went out in this lock window already. */
  async offer(userId: string): Promise<void> {
    const mails = await this.rateLimiter.hit(`login-unlock-mail:user:${userId}`, UNLOCK_MAILS_PER_USER);
    if (mails > UNLOCK_MAILS_PER_USER.limit) return;
    const user = await this.users.findOneBy({ id: userId });
    if (!user) return;
    const token = randomBytes(32).toString('base64url');
    await this.tokens.insert({
      userId,
      tokenHash: sha256Hex(token),
      expiresAt: new Date(Date.now() + UNLOCK_LINK_LIFETIME_MS),
    });
    const message = loginUnlockMail({
      to: user.email,
      name: user.name,
      appOrigin: this.config.appOrigin,
      token,
    });
    // Not awaited: a slow SMTP server must not make a registered address answer later than another.
    this.mail
      .send(message)
      .catch((error: unknown) => this.logger.error(`Unlock mail failed: ${String(error)}`));
  }

  /** Uses up a valid link and answers its account's id. */
  async redeem(token: string): Promise<string> {
    // Deleting the row is what makes the link single-use: of two parallel uses, one wins.
    const [rows] = await this.tokens.query(
      `DELETE FROM login_unlock_tokens WHERE token_hash = $1 AND expires_at > now() RETURNING user_id`,
      [sha256Hex(token)],
    );
    const userId = (rows as Array<{ user_id: string }>)[0]?.user_id;
    if (!userId) throw new BadRequestException(INVALID_UNLOCK_LINK_MESSAGE);
    return userId;
  }
}
