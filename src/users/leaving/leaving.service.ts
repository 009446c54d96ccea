import { BadRequestException, Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { Caller } from '../../access/access-gate.service';
import { GrantsService } from '../../access/grants.service';
import { DatasetOwnerService } from '../../assets/dataset-owner.service';
import { RateLimiterService, RateLimitRule } from '../../common/rate-limit/rate-limiter.service';
import { dropTable } from '../../database/data-tables/data-table-ddl';
import { sqlOn } from '../../database/sql';
import { releaseOrganisationsOf } from '../../organisations/membership-rules';
import { verifyPassword } from '../auth/passwords';
import type { AccountDeleted, AccountExport } from './account-export';

/** Wrong passwords allowed per user when deleting: a stolen session must not become a password oracle. */
const WRONG_PASSWORD: RateLimitRule = { limit: 5, windowSeconds: 15 * 60 };

const asIso = (moment: Date | null) => (moment ? moment.toISOString() : null);

/** A user leaving: their data to take along, then their account deleted. */
@Injectable()
export class LeavingService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly grants: GrantsService,
    private readonly datasets: DatasetOwnerService,
    private readonly rateLimiter: RateLimiterService,
  ) {}

  /** Profile, purchases, uploads and tokens of the caller; secrets (password, key) are never in it. */
  async export(caller: NonNullable<Caller>): Promise<AccountExport> {
    const [profile] = await this.dataSource.query(
      `SELECT id, name, email, email_verified_at, pro_user, created_at FROM users WHERE id = $1`,
      [caller.id],
    );
    const uploads: Array<{
      id: string;
      type: 'dataset' | 'connector';
      title: string;
      price: string;
      is_public: boolean;
      created_at: Date;
    }> = await this.dataSource.query(
      `SELECT id, 'dataset' AS type, title, price, is_public, created_at FROM assets WHERE owner_id = $1
         UNION ALL
         SELECT id, 'connector', title, price, is_public, created_at FROM connectors WHERE owner_id = $1
         ORDER BY created_at, id`,
      [caller.id],
    );
    const [key] = await this.dataSource.query(
      `SELECT api_key_hash IS NOT NULL AS present FROM users WHERE id = $1`,
      [caller.id],
    );
    const named: Array<{
      name: string;
      scopes: string[];
      expires_at: Date | null;
      last_used_at: Date | null;
    }> = await this.dataSource.query(
      `SELECT name, scopes, expires_at, last_used_at FROM api_tokens WHERE user_id = $1 ORDER BY created_at`,
      [caller.id],
    );
    const sessions: Array<{ expire: Date }> = await this.dataSource.query(
      `SELECT expire FROM session WHERE (sess -> 'passport' ->> 'user') = $1 ORDER BY expire`,
      [caller.id],
    );
    return {
      exported_at: new Date().toISOString(),
      profile: {
        id: profile.id,
        name: profile.name,
        email: profile.email,
        email_verified: profile.email_verified_at !== null,
        pro_user: profile.pro_user,
        created_at: profile.created_at.toISOString(),
      },
      purchases: await this.grants.account(caller),
      uploads: uploads.map((upload) => ({
        ...upload,
        price: Number(upload.price),
        created_at: upload.created_at.toISOString(),
      })),
      tokens: [
        ...(key?.present ? [{ kind: 'api_key' as const, expires_at: null }] : []),
        ...named.map((token) => ({
          kind: 'named_token' as const,
          name: token.name,
          scopes: token.scopes,
          expires_at: asIso(token.expires_at),
          last_used_at: asIso(token.last_used_at),
        })),
        ...sessions.map((session) => ({ kind: 'session' as const, expires_at: asIso(session.expire) })),
      ],
    };
  }

  /**
   * Deletes the account once its password is confirmed: its datasets with their tables (those
   * others paid for stay, archived, for their holders), its connector tables, its sessions, and
   * the user with everything that belongs to it alone.
   */
  async deleteAccount(caller: NonNullable<Caller>, password: string): Promise<AccountDeleted> {
    const limitKey = `delete-account-failures:user:${caller.id}`;
    await this.rateLimiter.take(
      [[limitKey, WRONG_PASSWORD]],
      'Too many attempts. Please try again in a few minutes.',
    );
    const [user] = await this.dataSource.query(`SELECT password_hash FROM users WHERE id = $1`, [caller.id]);
    if (!user || !(await verifyPassword(user.password_hash, password))) {
      throw new BadRequestException('Password is incorrect');
    }
    await this.rateLimiter.reset(limitKey);
    const released = await this.dataSource.transaction(async (manager) => {
      const sql = sqlOn(manager);
      await sql(`SELECT id FROM users WHERE id = $1 FOR UPDATE`, [caller.id]);
      // First: an account that would leave an organisation without an owner is not deleted at all.
      await releaseOrganisationsOf(sql, caller.id);
      const kept = await this.datasets.releaseAllOf(sql, caller.id);
      const { rows: tables } = await sql<{ table_name: string }>(
        `SELECT instance.output_table_name AS table_name FROM connector_instances instance WHERE instance.owner_id = $1
         UNION ALL
         SELECT further.output_table_name FROM connector_instance_tables further
           JOIN connector_instances instance ON instance.id = further.instance_id WHERE instance.owner_id = $1`,
        [caller.id],
      );
      for (const table of tables) await dropTable(sql, table.table_name);
      await sql(`DELETE FROM session WHERE (sess -> 'passport' ->> 'user') = $1`, [caller.id]);
      await sql(`DELETE FROM users WHERE id = $1`, [caller.id]);
      return kept;
    });
    return {
      message: 'Account deleted.',
      datasets_deleted: released.deleted,
      datasets_kept_for_buyers: released.archived,
    };
  }
}
