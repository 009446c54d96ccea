import {
  BadRequestException,
  ConflictException,
  Inject,
  Injectable,
  Logger,
  UnauthorizedException,
} from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { toDataURL } from 'qrcode';
import { DataSource, IsNull, Not, Repository } from 'typeorm';
import { SecretBox } from '../../common/crypto/secret-box';
import { RateLimiterService, RateLimitRule } from '../../common/rate-limit/rate-limiter.service';
import { APP_CONFIG, AppConfig } from '../../config/app-config';
import { sqlOn } from '../../database/sql';
import { endCredentials } from '../credentials/end-credentials';
import { verifyPassword } from '../auth/passwords';
import { User } from '../entities/user.entity';
import { MailService } from '../mail/mail.service';
import { TwoFactorCredential } from './entities/two-factor-credential.entity';
import { TwoFactorRecoveryCode } from './entities/two-factor-recovery-code.entity';
import { ONE_TIME_CODE_STRATEGY, type OneTimeCodeStrategy } from './one-time-code.strategy';
import { generateRecoveryCodes, hashRecoveryCode } from './recovery-codes';
import { recoveryCodeUsedMail } from './recovery-code-used-mail';
import { AuditService } from '../../audit/audit.service';
import { TooManyRequestsException } from '../../common/rate-limit/too-many-requests.exception';
import type { LoginClient } from '../auth/credentials.service';
import { deviceVouchesFor } from '../auth/trusted-devices.service';
import { CODE_STEP_LOCKED_MESSAGE } from '../login-unlock/login-unlock.messages';
import { LoginUnlockService } from '../login-unlock/login-unlock.service';

/**
 * Wrong codes (and recovery codes, on keys of their own) at the code step of a login, limited like
 * wrong passwords: a browser that signed in to the account before counts only its own failures,
 * so someone who knows the password cannot lock the owner out of the code step there.
 */
export const TWO_FACTOR_FAILURES_PER_TRUSTED_DEVICE: RateLimitRule = { limit: 5, windowSeconds: 15 * 60 };
/** Other browsers: per account and client address, */
export const TWO_FACTOR_FAILURES_PER_USER_AND_CLIENT: RateLimitRule = { limit: 5, windowSeconds: 15 * 60 };
/** and per account from all of them together; past it the owner is mailed an unlock link. */
export const TWO_FACTOR_FAILURES_PER_USER: RateLimitRule = { limit: 10, windowSeconds: 15 * 60 };
/** Wrong codes when turning two-factor sign-in on or off, signed in. */
export const TWO_FACTOR_SETTINGS_FAILURES_PER_USER: RateLimitRule = { limit: 5, windowSeconds: 15 * 60 };
export const INVALID_CODE_MESSAGE = 'Invalid code';

/** The count of wrong codes at login from browsers new to the account, all together. */
function accountCodeKey(kind: 'code' | 'recovery-code', userId: string): string {
  return `two-factor-failures:${kind}:user:${userId}`;
}
export const TOO_MANY_CODES_MESSAGE = 'Too many wrong codes. Please try again in a few minutes.';

/** What proves the second factor: a code from the app, or one of the recovery codes. */
export interface SecondFactor {
  code?: string;
  recoveryCode?: string;
}

export interface TwoFactorSetup {
  secret: string;
  otpauth_url: string;
  qr_code: string;
}

/** Two-factor sign-in: setting it up, checking codes, recovery codes, turning it off. */
@Injectable()
export class TwoFactorService {
  private readonly logger = new Logger(TwoFactorService.name);

  constructor(
    @InjectRepository(TwoFactorCredential) private readonly credentials: Repository<TwoFactorCredential>,
    @InjectRepository(TwoFactorRecoveryCode)
    private readonly recoveryCodes: Repository<TwoFactorRecoveryCode>,
    @InjectRepository(User) private readonly users: Repository<User>,
    @Inject(ONE_TIME_CODE_STRATEGY) private readonly strategy: OneTimeCodeStrategy,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly secretBox: SecretBox,
    private readonly rateLimiter: RateLimiterService,
    private readonly mail: MailService,
    private readonly dataSource: DataSource,
    private readonly audit: AuditService,
    private readonly unlock: LoginUnlockService,
  ) {}

  async isEnabled(userId: string): Promise<boolean> {
    return this.credentials.exists({ where: { userId, enabledAt: Not(IsNull()) } });
  }

  async status(userId: string): Promise<{ enabled: boolean; recovery_codes_left: number }> {
    const enabled = await this.isEnabled(userId);
    const left = enabled ? await this.recoveryCodes.count({ where: { userId, usedAt: IsNull() } }) : 0;
    return { enabled, recovery_codes_left: left };
  }

  /** A new secret for the user to add to their app; two-factor is on only once a code confirms it. */
  async beginSetup(userId: string, email: string): Promise<TwoFactorSetup> {
    if (await this.isEnabled(userId)) throw new ConflictException('Two-factor sign-in is already on');
    const secret = this.strategy.newSecret();
    await this.credentials.upsert(
      { userId, secretSealed: this.secretBox.seal(secret), enabledAt: null, lastTimeStep: null },
      ['userId'],
    );
    const uri = this.strategy.provisioningUri(secret, email);
    return { secret, otpauth_url: uri, qr_code: await toDataURL(uri) };
  }

  /**
   * Confirms the setup with a first code; answers the recovery codes, shown this once only. Every
   * other session ends, as with a password change: one opened before signed in without a code.
   */
  async enable(userId: string, code: string, currentSessionId: string): Promise<string[]> {
    const pending = await this.credentials.findOneBy({ userId, enabledAt: IsNull() });
    if (!pending) throw new BadRequestException('Start the two-factor setup first');
    await this.limitedInSettings(userId, 'code', async () => {
      // 400, not 401: the caller is logged in, only the code is wrong.
      if (!(await this.acceptCode(pending, code))) throw new BadRequestException(INVALID_CODE_MESSAGE);
    });
    const codes = generateRecoveryCodes();
    await this.dataSource.transaction(async (manager) => {
      await manager.update(TwoFactorCredential, { userId }, { enabledAt: new Date() });
      await this.audit.recordIn(manager, 'two_factor_enabled', {}, userId);
      await endCredentials(sqlOn(manager), userId, {
        keepSessionId: currentSessionId,
        apiKeyAndTokens: false,
        trustedDevices: false,
      });
      await manager.delete(TwoFactorRecoveryCode, { userId });
      await manager.insert(
        TwoFactorRecoveryCode,
        codes.map((recoveryCode) => ({ userId, codeHash: hashRecoveryCode(recoveryCode) })),
      );
    });
    return codes;
  }

  /** Turning it off needs the password and a code (or a recovery code). */
  async disable(userId: string, password: string, factor: SecondFactor): Promise<void> {
    const credential = await this.enabledCredential(userId);
    await this.limitedInSettings(userId, factor.recoveryCode ? 'recovery-code' : 'code', async () => {
      const user = await this.users
        .createQueryBuilder('user')
        .addSelect('user.passwordHash')
        .where('user.id = :userId', { userId })
        .getOneOrFail();
      if (!(await verifyPassword(user.passwordHash, password))) {
        throw new BadRequestException('Password is incorrect');
      }
      if (!(await this.acceptFactor(credential, factor))) throw new BadRequestException(INVALID_CODE_MESSAGE);
    });
    await this.dataSource.transaction(async (manager) => {
      await manager.delete(TwoFactorRecoveryCode, { userId });
      await manager.delete(TwoFactorCredential, { userId });
      await this.audit.recordIn(
        manager,
        'two_factor_disabled',
        { recovery_code_used: Boolean(factor.recoveryCode) },
        userId,
      );
    });
  }

  /** The second step of a login: true when a recovery code (not an app code) was used. */
  async verifyLogin(
    userId: string,
    factor: SecondFactor,
    client: LoginClient,
  ): Promise<{ usedRecoveryCode: boolean }> {
    const credential = await this.enabledCredential(userId);
    const usedRecoveryCode = Boolean(factor.recoveryCode);
    const kind = usedRecoveryCode ? 'recovery-code' : 'code';
    const limits = await this.codeStepLimits(userId, kind, client);
    const userKey = accountCodeKey(kind, userId);
    try {
      await this.rateLimiter.take(limits, TOO_MANY_CODES_MESSAGE);
    } catch (error) {
      const fromNewBrowser = limits.some(([key]) => key === userKey);
      if (!fromNewBrowser || !(error instanceof TooManyRequestsException)) throw error;
      throw await this.refusedNewBrowser(error, userKey, userId);
    }
    if (!(await this.acceptFactor(credential, factor))) throw new UnauthorizedException(INVALID_CODE_MESSAGE);
    // The right code is no failure: this browser's count starts again, the account's takes it back.
    await this.rateLimiter.reset(limits[0][0]);
    if (limits[1]) await this.rateLimiter.giveBack(...limits[1]);
    if (usedRecoveryCode) await this.tellRecoveryCodeUsed(userId);
    return { usedRecoveryCode };
  }

  private async enabledCredential(userId: string): Promise<TwoFactorCredential> {
    const credential = await this.credentials.findOne({ where: { userId, enabledAt: Not(IsNull()) } });
    if (!credential) throw new BadRequestException('Two-factor sign-in is not on');
    return credential;
  }

  /**
   * A browser that signed in to the account before counts only its own wrong codes; any other
   * counts per client address and towards the account's ceiling for new browsers.
   */
  private async codeStepLimits(
    userId: string,
    kind: 'code' | 'recovery-code',
    client: LoginClient,
  ): Promise<Array<[key: string, rule: RateLimitRule]>> {
    const user = await this.users
      .createQueryBuilder('user')
      .addSelect('user.credentialsEndedAt')
      .where('user.id = :userId', { userId })
      .getOneOrFail();
    const device = client.trustedDevice;
    if (deviceVouchesFor(device, userId, user.credentialsEndedAt)) {
      const deviceKey = `two-factor-failures:${kind}:device:${device.deviceId}:user:${userId}`;
      return [[deviceKey, TWO_FACTOR_FAILURES_PER_TRUSTED_DEVICE]];
    }
    return [
      [
        `two-factor-failures:${kind}:user-client:${userId}:${client.ip}`,
        TWO_FACTOR_FAILURES_PER_USER_AND_CLIENT,
      ],
      [accountCodeKey(kind, userId), TWO_FACTOR_FAILURES_PER_USER],
    ];
  }

  /**
   * A browser the account does not know, refused at the code step. When every new browser is
   * stopped, the owner is mailed an unlock link (only someone with the password gets this far).
   */
  private async refusedNewBrowser(
    refusal: TooManyRequestsException,
    userKey: string,
    userId: string,
  ): Promise<TooManyRequestsException> {
    const failures = await this.rateLimiter.peekWindow(userKey, TWO_FACTOR_FAILURES_PER_USER);
    if (failures.hits < TWO_FACTOR_FAILURES_PER_USER.limit) return refusal;
    await this.unlock.offer(userId);
    return new TooManyRequestsException(CODE_STEP_LOCKED_MESSAGE, refusal.retryAfterSeconds);
  }

  /**
   * Counts the attempt before the check (parallel guesses cannot slip under the limit); a
   * success gives the user a fresh allowance. App codes and recovery codes have a key each.
   */
  private async limitedInSettings(
    userId: string,
    kind: 'code' | 'recovery-code',
    check: () => Promise<void>,
  ) {
    const key = `two-factor-failures:${kind}:settings:user:${userId}`;
    await this.rateLimiter.take([[key, TWO_FACTOR_SETTINGS_FAILURES_PER_USER]], TOO_MANY_CODES_MESSAGE);
    await check();
    await this.rateLimiter.reset(key);
  }

  private acceptFactor(credential: TwoFactorCredential, factor: SecondFactor): Promise<boolean> {
    return factor.recoveryCode
      ? this.redeemRecoveryCode(credential.userId, factor.recoveryCode)
      : this.acceptCode(credential, factor.code ?? '');
  }

  /** A code is accepted once: its time step must be newer than the last accepted one. */
  private async acceptCode(credential: TwoFactorCredential, code: string): Promise<boolean> {
    const secret = this.secretBox.open(credential.secretSealed);
    const last = credential.lastTimeStep === null ? undefined : Number(credential.lastTimeStep);
    const timeStep = await this.strategy.verify(secret, code, last);
    if (timeStep === undefined) return false;
    // Conditional, so two parallel requests with the same code cannot both pass.
    const [, updated] = await this.dataSource.query(
      `UPDATE two_factor_credentials SET last_time_step = $2
        WHERE user_id = $1 AND (last_time_step IS NULL OR last_time_step < $2)`,
      [credential.userId, timeStep],
    );
    return updated === 1;
  }

  private async redeemRecoveryCode(userId: string, recoveryCode: string): Promise<boolean> {
    const [, redeemed] = await this.dataSource.query(
      `UPDATE two_factor_recovery_codes SET used_at = now()
        WHERE user_id = $1 AND code_hash = $2 AND used_at IS NULL`,
      [userId, hashRecoveryCode(recoveryCode)],
    );
    return redeemed === 1;
  }

  private async tellRecoveryCodeUsed(userId: string): Promise<void> {
    const user = await this.users.findOneByOrFail({ id: userId });
    const left = await this.recoveryCodes.count({ where: { userId, usedAt: IsNull() } });
    const message = recoveryCodeUsedMail({
      to: user.email,
      name: user.name,
      appOrigin: this.config.appOrigin,
      left,
    });
    // The login has happened; a mail that fails must not undo it, but the operator should know.
    await this.mail
      .send(message)
      .catch((error: unknown) => this.logger.error(`Recovery-code mail failed: ${String(error)}`));
  }
}
