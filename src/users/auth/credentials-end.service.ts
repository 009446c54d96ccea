import { randomBytes } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { SecretBox, sha256Hex } from '../../common/crypto/secret-box';
import { sqlOn } from '../../database/sql';

/** What a change of the account's secrets ends besides the password itself. */
export interface CredentialsToEnd {
  /** The session the change was made from: it stays, every other one ends. None: all end. */
  keepSessionId?: string;
  /** The personal API key (a new one replaces it, when there was one) and every named token. */
  apiAccess: boolean;
  /** Trusted-device cookies: no browser keeps its own login allowance for the account. */
  trustedDevices: boolean;
}

/** 32 random bytes, as ApiKeyService issues them. */
const API_KEY_BYTES = 32;

/**
 * Ends an account's credentials inside the transaction that changes its secret, so a password
 * reset (someone else may be in), a change or turning two-factor sign-in on leaves nothing that
 * the old secret opened: the change and the ending commit together or not at all.
 */
@Injectable()
export class CredentialsEndService {
  constructor(private readonly secretBox: SecretBox) {}

  async end(manager: EntityManager, userId: string, end: CredentialsToEnd): Promise<void> {
    const sql = sqlOn(manager);
    // Same expression as the session_user_idx index, so this is an index look-up.
    await sql(`DELETE FROM session WHERE (sess -> 'passport' ->> 'user') = $1 AND sid IS DISTINCT FROM $2`, [
      userId,
      end.keepSessionId ?? null,
    ]);
    if (end.apiAccess) {
      const key = randomBytes(API_KEY_BYTES).toString('base64url');
      await sql(
        `UPDATE users SET api_key_hash = $2, api_key_encrypted = $3 WHERE id = $1 AND api_key_hash IS NOT NULL`,
        [userId, sha256Hex(key), this.secretBox.seal(key)],
      );
      await sql(`DELETE FROM api_tokens WHERE user_id = $1`, [userId]);
    }
    if (end.trustedDevices)
      await sql(`UPDATE users SET trusted_devices_ended_at = now() WHERE id = $1`, [userId]);
  }
}
