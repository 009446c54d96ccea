import type { Sql } from '../../database/sql';

/** What a credential change ends besides the password itself. */
export interface CredentialsToEnd {
  /** The session that made the change and stays signed in (none for a reset by mail link). */
  keepSessionId?: string;
  /** Ends the personal API key and every named token as well as the sessions. */
  apiKeyAndTokens: boolean;
  /** Ends the browsers' trusted-device standing for the account (a reset: someone else may be in). */
  trustedDevices: boolean;
}

/**
 * The one place that ends an account's credentials, run inside the caller's transaction: a
 * password reset, a password change and turning two-factor sign-in on all come here, so none of
 * them leaves a back door open. A new API key, when one is wanted, is the caller's to issue.
 */
export async function endCredentials(sql: Sql, userId: string, what: CredentialsToEnd): Promise<void> {
  // Same expression as the session_user_idx index, so this is an index look-up.
  await sql(`DELETE FROM session WHERE (sess -> 'passport' ->> 'user') = $1 AND sid IS DISTINCT FROM $2`, [
    userId,
    what.keepSessionId ?? null,
  ]);
  if (what.apiKeyAndTokens) {
    await sql(`DELETE FROM api_tokens WHERE user_id = $1`, [userId]);
    await sql(`UPDATE users SET api_key_hash = NULL, api_key_encrypted = NULL WHERE id = $1`, [userId]);
  }
  if (what.trustedDevices) {
    await sql(`UPDATE users SET credentials_ended_at = clock_timestamp() WHERE id = $1`, [userId]);
  }
}
