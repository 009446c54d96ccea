import { BadRequestException, Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { DataSource, Repository } from 'typeorm';
import { RateLimiterService, RateLimitRule } from '../common/rate-limit/rate-limiter.service';
import { CredentialsEndService } from './auth/credentials-end.service';
import { hashPassword, verifyPassword } from './auth/passwords';
import { User } from './entities/user.entity';

/** Wrong current passwords allowed per user: a stolen session must not become a password oracle. */
const WRONG_CURRENT_PASSWORD: RateLimitRule = { limit: 5, windowSeconds: 15 * 60 };

/** Changes to one's own account made from the Account screen. */
@Injectable()
export class AccountService {
  constructor(
    @InjectRepository(User) private readonly users: Repository<User>,
    private readonly dataSource: DataSource,
    private readonly rateLimiter: RateLimiterService,
    private readonly credentials: CredentialsEndService,
  ) {}

  /**
   * Checks the current password, stores the new hash and logs out every other session; unless
   * told not to, also replaces the personal API key and ends every named token.
   */
  async changePassword(
    userId: string,
    currentSessionId: string,
    currentPassword: string,
    newPassword: string,
    endApiAccess: boolean,
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
      // A change after a leak must end what the old password let others open.
      await this.credentials.end(manager, userId, {
        keepSessionId: currentSessionId,
        apiAccess: endApiAccess,
        trustedDevices: false,
      });
    });
  }
}
