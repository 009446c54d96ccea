import { BadRequestException, Inject, Injectable, Logger, ServiceUnavailableException } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import { DataSource } from 'typeorm';
import { sha256Hex } from '../common/crypto/secret-box';
import { APP_CONFIG, AppConfig } from '../config/app-config';
import { isUniqueViolation } from '../database/sql';
import { hashPassword } from './auth/passwords';
import type { RegisterDto } from './dto/register.dto';
import { EmailVerificationToken } from './entities/email-verification-token.entity';
import { User } from './entities/user.entity';
import { MailService } from './mail/mail.service';
import { accountExistsMail } from './mail/account-exists-mail';
import { verificationMail } from './mail/verification-mail';
import { REGISTRATION_NEEDS_MAIL_MESSAGE, registrationNeedsMail } from './mail/mail-required';

const VERIFICATION_TTL_MS = 24 * 60 * 60 * 1000;

/** Registration and the e-mail verification that must follow it before the first login. */
@Injectable()
export class RegistrationService {
  private readonly logger = new Logger(RegistrationService.name);

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly dataSource: DataSource,
    private readonly mail: MailService,
  ) {}

  /**
   * Registers a new account, or, for an address that has one, mails its owner instead: the answer
   * is the same either way, so registration cannot be used to find out who has an account.
   */
  async register(input: RegisterDto): Promise<void> {
    if (registrationNeedsMail(this.config))
      throw new ServiceUnavailableException(REGISTRATION_NEEDS_MAIL_MESSAGE);
    const passwordHash = await hashPassword(input.password);
    const token = randomBytes(32).toString('base64url');
    let userId: string;
    try {
      userId = await this.dataSource.transaction(async (manager) => {
        // An account never verified while its links were valid is abandoned (it cannot log in
        // and owns nothing): the address becomes free again instead of being blocked for good.
        await manager.query(
          `DELETE FROM users WHERE lower(email) = lower($1) AND email_verified_at IS NULL
             AND NOT EXISTS (SELECT 1 FROM email_verification_tokens token
                             WHERE token.user_id = users.id AND token.used_at IS NULL AND token.expires_at > now())`,
          [input.email],
        );
        const user = await manager.save(
          manager.create(User, { email: input.email, name: input.name, passwordHash }),
        );
        await manager.insert(EmailVerificationToken, {
          userId: user.id,
          tokenHash: sha256Hex(token),
          expiresAt: new Date(Date.now() + VERIFICATION_TTL_MS),
        });
        return user.id;
      });
    } catch (error) {
      // The unique index on lower(email) decides, so concurrent registrations cannot both win.
      if (isUniqueViolation(error)) return this.tellOwner(input.email);
      throw error;
    }

    try {
      await this.mail.send(
        verificationMail({ to: input.email, name: input.name, appOrigin: this.config.appOrigin, token }),
      );
    } catch (error) {
      // An account nobody can verify would block the address for good: take it back.
      this.logger.error(`Verification mail could not be sent: ${String(error)}`);
      await this.dataSource.getRepository(User).delete({ id: userId });
      throw new ServiceUnavailableException(
        'We could not send the verification email. Please try again later.',
      );
    }
  }

  private async tellOwner(email: string): Promise<void> {
    try {
      await this.mail.send(accountExistsMail({ to: email, appOrigin: this.config.appOrigin }));
    } catch (error) {
      // Failing here would tell the caller the address is taken: the owner simply gets no note.
      this.logger.warn(`Account-exists mail could not be sent: ${String(error)}`);
    }
  }

  /** Uses the token once; unknown, used and expired tokens each get their own 400 message. */
  async verifyEmail(token: string): Promise<void> {
    const tokenHash = sha256Hex(token);
    const verified = await this.dataSource.transaction(async (manager) => {
      // An UPDATE answers [rows, affected count].
      const [[used]] = await manager.query(
        `UPDATE email_verification_tokens SET used_at = now()
         WHERE token_hash = $1 AND used_at IS NULL AND expires_at > now()
         RETURNING user_id`,
        [tokenHash],
      );
      if (!used) return false;
      await manager.query(
        `UPDATE users SET email_verified_at = coalesce(email_verified_at, now()) WHERE id = $1`,
        [used.user_id],
      );
      return true;
    });
    if (verified) return;

    const existing = await this.dataSource.getRepository(EmailVerificationToken).findOneBy({ tokenHash });
    if (!existing) throw new BadRequestException('Invalid verification link');
    if (existing.usedAt) throw new BadRequestException('This verification link has already been used');
    throw new BadRequestException('This verification link has expired. Please register again.');
  }
}
