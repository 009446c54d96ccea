import { BadRequestException, ForbiddenException, Injectable, UnauthorizedException } from '@nestjs/common';
import { RateLimiterService, RateLimitRule } from '../../common/rate-limit/rate-limiter.service';
import type { AuthenticatedUser } from '../../common/decorators/current-user.decorator';
import { UsersService } from '../users.service';
import { PASSWORD_MAX_LENGTH, verifyAgainstDecoy, verifyPassword } from './passwords';
import { deviceVouchesFor, type TrustedDevice } from './trusted-devices.service';
import { AuditService } from '../../audit/audit.service';
import { TooManyRequestsException } from '../../common/rate-limit/too-many-requests.exception';
import { ACCOUNT_LOCKED_MESSAGE } from '../login-unlock/login-unlock.messages';
import { LoginUnlockService } from '../login-unlock/login-unlock.service';

/**
 * Failed logins allowed for one account from one client address before that address is refused
 * for the account for the rest of the window. Keyed on both, so a stranger's wrong guesses from
 * elsewhere never lock the owner out.
 */
export const LOGIN_FAILURES_PER_EMAIL_AND_CLIENT: RateLimitRule = { limit: 5, windowSeconds: 15 * 60 };
/**
 * Failed logins allowed for one account from all addresses together (guessing from many
 * addresses). Past it, only a browser the account has logged in from before, or one that
 * followed the unlock link mailed to the owner, gets through.
 */
export const LOGIN_FAILURES_PER_EMAIL: RateLimitRule = { limit: 100, windowSeconds: 15 * 60 };
/**
 * Failed logins allowed per client address (guessing across many accounts). Past it, only
 * browsers that have logged in to the account before get through (colleagues behind one NAT).
 */
export const LOGIN_FAILURES_PER_IP: RateLimitRule = { limit: 50, windowSeconds: 15 * 60 };
/** Failed logins allowed for one account from one trusted browser (its own allowance). */
export const LOGIN_FAILURES_PER_TRUSTED_DEVICE: RateLimitRule = { limit: 5, windowSeconds: 15 * 60 };

/** Who is trying to log in: the client address and the browser's trusted-device cookie, if any. */
export interface LoginClient {
  ip: string;
  trustedDevice?: TrustedDevice;
}

/** Wrong e-mail and wrong password share one message so nobody can probe which accounts exist. */
export const INVALID_CREDENTIALS_MESSAGE = 'Invalid email or password';
export const UNVERIFIED_MESSAGE =
  'Please verify your email before logging in. Check your inbox for the verification link.';
/** Longest e-mail address registration accepts; a longer one names no account. */
const MAX_EMAIL_LENGTH = 254;
export const TOO_MANY_ATTEMPTS_MESSAGE = 'Too many failed login attempts. Please try again in a few minutes.';

/** Checks e-mail + password for the local passport strategy, with failure rate limits. */
@Injectable()
export class CredentialsService {
  constructor(
    private readonly users: UsersService,
    private readonly rateLimiter: RateLimiterService,
    private readonly audit: AuditService,
    private readonly unlock: LoginUnlockService,
  ) {}

  async authenticate(email: string, password: string, client: LoginClient): Promise<AuthenticatedUser> {
    // Login runs before body validation (passport reads the body): the address must fit a key and a query.
    if (email.length > MAX_EMAIL_LENGTH || email.includes('\0')) {
      throw new BadRequestException('Please enter a valid email address');
    }
    const account = email.trim().toLowerCase();
    const user = await this.users.findByEmailWithPassword(email.trim());
    const device = client.trustedDevice;
    // A browser that completed a login to this account before is no stranger: only its own
    // allowance counts, so others' failures (on the account or from its address) cannot lock it
    // out, and guessing through it stays capped.
    const trustedDevice =
      user && deviceVouchesFor(device, user.id, user.credentialsEndedAt) ? device : undefined;
    const accountKey = `login-failures:email:${account}`;
    const limits: Array<[key: string, rule: RateLimitRule]> = trustedDevice
      ? [[`login-failures:device:${trustedDevice.deviceId}:${account}`, LOGIN_FAILURES_PER_TRUSTED_DEVICE]]
      : [
          [`login-failures:email-client:${account}:${client.ip}`, LOGIN_FAILURES_PER_EMAIL_AND_CLIENT],
          [accountKey, LOGIN_FAILURES_PER_EMAIL],
          [`login-failures:ip:${client.ip}`, LOGIN_FAILURES_PER_IP],
        ];
    // Counted before the slow check, so parallel guesses cannot all slip in under the limit.
    try {
      await this.rateLimiter.take(limits, TOO_MANY_ATTEMPTS_MESSAGE);
    } catch (error) {
      if (trustedDevice || !(error instanceof TooManyRequestsException)) throw error;
      throw await this.refusedNewBrowser(error, accountKey, user?.id);
    }

    // No stored password is longer than registration allows, so a longer one fails without the
    // cost of hashing megabytes; it still counts as a failure like any wrong password.
    const withinLimit = password.length <= PASSWORD_MAX_LENGTH;
    const passwordMatches =
      user && withinLimit
        ? await verifyPassword(user.passwordHash, password)
        : await verifyAgainstDecoy(password.slice(0, PASSWORD_MAX_LENGTH));
    if (user && !passwordMatches) await this.audit.record('sign_in_failed', {}, user.id);
    if (!user || !passwordMatches) throw new UnauthorizedException(INVALID_CREDENTIALS_MESSAGE);

    // The right password is no failure: this client's (or browser's) count starts again, and the
    // account-wide and address-wide counts (which keep counting others) take the attempt back.
    await this.rateLimiter.reset(limits[0][0]);
    await Promise.all(limits.slice(1).map(([key, rule]) => this.rateLimiter.giveBack(key, rule)));
    // Told only to someone who knows the password, so it reveals nothing to a stranger.
    if (!user.emailVerifiedAt) throw new ForbiddenException(UNVERIFIED_MESSAGE);
    return UsersService.toAuthenticatedUser(user);
  }

  /**
   * A browser the account does not know, refused. When the whole account is locked, that browser
   * would stay out whatever the owner does: the owner is mailed an unlock link, and the answer
   * says so (the same for an address without an account, which is counted and locked alike).
   */
  private async refusedNewBrowser(
    refusal: TooManyRequestsException,
    accountKey: string,
    userId: string | undefined,
  ): Promise<TooManyRequestsException> {
    const accountFailures = await this.rateLimiter.peekWindow(accountKey, LOGIN_FAILURES_PER_EMAIL);
    if (accountFailures.hits < LOGIN_FAILURES_PER_EMAIL.limit) return refusal;
    if (userId) await this.unlock.offer(userId);
    return new TooManyRequestsException(ACCOUNT_LOCKED_MESSAGE, refusal.retryAfterSeconds);
  }
}
