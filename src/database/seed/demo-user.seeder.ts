import { randomBytes } from 'node:crypto';
import { Inject, Injectable, Logger } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { APP_CONFIG, AppConfig } from '../../config/app-config';
import { ApiKeyService } from '../../users/api-keys/api-key.service';
import { hashPassword, verifyPassword } from '../../users/auth/passwords';
import { UsersService } from '../../users/users.service';
import { DEMO_USER } from './seed-context';

/** A password nobody knows: generated, hashed and forgotten, so the account cannot be logged into. */
function unknowablePassword(): string {
  return randomBytes(32).toString('hex');
}

/**
 * Creates (once) the verified demo user who is a pro user and a blog editor, with an API key.
 * Only outside production does it get the published password; in production it merely owns the
 * demo content.
 */
@Injectable()
export class DemoUserSeeder {
  private readonly logger = new Logger(DemoUserSeeder.name);

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly dataSource: DataSource,
    private readonly users: UsersService,
    private readonly apiKeys: ApiKeyService,
  ) {}

  /** Whether the demo account can be logged into with the published password. */
  get hasPublishedPassword(): boolean {
    return !this.config.isProduction;
  }

  async run(): Promise<string> {
    const existing = await this.users.findByEmail(DEMO_USER.email);
    if (existing) return existing.id;

    const password = this.hasPublishedPassword ? DEMO_USER.password : unknowablePassword();
    const [row] = await this.dataSource.query(
      `INSERT INTO users (email, name, password_hash, email_verified_at, pro_user, blog_editor)
       VALUES ($1, $2, $3, now(), true, true)
       ON CONFLICT ((lower(email))) DO NOTHING
       RETURNING id`,
      [DEMO_USER.email, DEMO_USER.name, await hashPassword(password)],
    );
    // Another process won the race between the look-up and the insert.
    if (!row) return (await this.users.findByEmail(DEMO_USER.email))!.id;
    await this.apiKeys.rotate(row.id);
    return row.id as string;
  }

  /**
   * A database seeded before production start-ups stopped publishing the password may still hold
   * a demo account that opens with it: that password is replaced by an unknowable one.
   */
  async lockPublishedPassword(): Promise<boolean> {
    const account = await this.users.findByEmailWithPassword(DEMO_USER.email);
    if (!account || !(await verifyPassword(account.passwordHash, DEMO_USER.password))) return false;
    const passwordHash = await hashPassword(unknowablePassword());
    await this.dataSource.transaction(async (manager) => {
      await manager.query('UPDATE users SET password_hash = $2 WHERE id = $1', [account.id, passwordHash]);
      // Whoever logged in with the published password is logged out too.
      await manager.query(`DELETE FROM session WHERE (sess -> 'passport' ->> 'user') = $1`, [account.id]);
    });
    this.logger.warn(`The published password of ${DEMO_USER.email} no longer opens it`);
    return true;
  }
}
