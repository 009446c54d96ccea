import { BadRequestException, Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { DataSource, Repository } from 'typeorm';
import { RateLimiterService, RateLimitRule } from '../common/rate-limit/rate-limiter.service';
import { ApiKeyService } from './api-keys/api-key.service';
import { hashPassword, verifyPassword } from './auth/passwords';
import { sqlOn } from '../database/sql';
import { endCredentials } from './credentials/end-credentials';
import { User } from './entities/user.entity';
import { AuditService } from '../audit/audit.service';

/** Wrong current passwords allowed per user: a stolen session must not become a password oracle. */
const WRONG_CURRENT_PASSWORD: RateLimitRule = { limit: 5, windowSeconds: 15 * 60 };

/** Changes to one's own account made from the Account screen. */
@Injectable()
export class AccountService {
  constructor(
    @InjectRepository(User) private readonly users: Repository<User>,
    private readonly dataSource: DataSource,
    private readonly rateLimiter: RateLimiterService,
    private readonly apiKeys: ApiKeyService,
    private readonly audit: AuditService,
  ) {}

  /**
   * Checks the current password, stores the new hash and logs out every other session; unless
   * told to keep them, also ends the personal API key (a new one is issued) and every named token.
   */
  async changePassword(
    userId: string,
    currentSessionId: string,
    currentPassword: string,
    newPassword: string,
    endApiKeyAndTokens = true,
  ) {
    const limitKey = `change-password-failures:user:${userId}`;
    // Counted before the slow check, so parallel guesses cannot all slip in under the limit.
    await this.rateLimiter.take(
      [[limitKey, WRONG_CURRENT_PASSWORD]],
      'Too many attempts. Please try again in a few minutes.',
    );
    const user = await this.users
      .createQueryBuilder('user')
      .addSelect('user.passwordHash')
      .where('user.id = :userId', { userId })
      .getOneOrFail();
    if (!(await verifyPassword(user.passwordHash, currentPassword))) {
      throw new BadRequestException('Current password is incorrect');
    }
    await this.rateLimiter.reset(limitKey);
    if (currentPassword === newPassword) {
      throw new BadRequestException('The new password must differ from the current one');
    }

    const passwordHash = await hashPassword(newPassword);
    await this.dataSource.transaction(async (manager) => {
      await manager.update(User, { id: userId }, { passwordHash });
      await this.audit.recordIn(manager, 'password_changed', { api_key_rotated: endApiKeyAndTokens }, userId);
      await endCredentials(sqlOn(manager), userId, {
        keepSessionId: currentSessionId,
        apiKeyAndTokens: endApiKeyAndTokens,
        trustedDevices: false,
      });
    });
    // A password change after a leak ends what the old key and tokens still open; the owner's
    // tools get a fresh key (shown on the Account screen).
    if (endApiKeyAndTokens) await this.apiKeys.rotate(userId);
  }
}
