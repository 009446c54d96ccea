import { hash, verify } from 'argon2';

/** Password rules shared by registration and password change. */
export const PASSWORD_MIN_LENGTH = 8;
/** argon2 hashes any length, but an upper bound keeps hashing cost predictable. */
export const PASSWORD_MAX_LENGTH = 256;

/** Slow, salted argon2id hash; the password itself is never stored. */
export function hashPassword(password: string): Promise<string> {
  return hash(password);
}

export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  try {
    return await verify(passwordHash, password);
  } catch {
    // A malformed stored hash must never let anyone in.
    return false;
  }
}

let decoyHash: Promise<string> | undefined;

/**
 * Spends the same time as a real check when the e-mail is unknown, so response times do not
 * reveal which addresses have accounts.
 */
export async function verifyAgainstDecoy(password: string): Promise<false> {
  decoyHash ??= hash('decoy-password-never-matches');
  await verifyPassword(await decoyHash, password);
  return false;
}
