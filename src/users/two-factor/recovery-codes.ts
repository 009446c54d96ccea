import { randomInt } from 'node:crypto';
import { sha256Hex } from '../../common/crypto/secret-box';

export const RECOVERY_CODE_COUNT = 10;
/** Letters and digits without look-alikes (0/o, 1/l/i): 31 symbols, almost 5 random bits each. */
const ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';
const GROUPS = 4;
const GROUP_LENGTH = 4;

/** Ten fresh codes like `k3xq-9fmz-a2pt-7wne` (79 random bits each), shown once. */
export function generateRecoveryCodes(count = RECOVERY_CODE_COUNT): string[] {
  return Array.from({ length: count }, () =>
    Array.from({ length: GROUPS }, () =>
      Array.from({ length: GROUP_LENGTH }, () => ALPHABET[randomInt(ALPHABET.length)]).join(''),
    ).join('-'),
  );
}

/** Letter case, spaces and hyphens do not matter when a code is typed back. */
export function normalizeRecoveryCode(input: string): string {
  return input.toLowerCase().replace(/[\s-]/g, '');
}

/** Stored form: codes are random and long, so SHA-256 suffices (no slow hash needed). */
export function hashRecoveryCode(input: string): string {
  return sha256Hex(`recovery-code:${normalizeRecoveryCode(input)}`);
}
