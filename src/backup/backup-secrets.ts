import type { BackupSecrets } from './backup-file';

const NAMES = ['SESSION_SECRET', 'ENCRYPTION_KEY'] as const;

/** The same secret written two ways: a hex key in either case is one key. */
function same(name: (typeof NAMES)[number], a: string, b: string): boolean {
  return name === 'ENCRYPTION_KEY' ? a.toLowerCase() === b.toLowerCase() : a === b;
}

/**
 * Where a restore's secrets come from: the environment's when it sets them (they must then be the
 * backup's: connector credentials and API keys decrypt only with that key), else the backup's,
 * written to .data/secrets.json. Answers the refusal, or whether to write the file.
 */
export function restoredSecrets(
  env: NodeJS.ProcessEnv,
  backup: BackupSecrets,
): { refusal: string } | { writeSecretsFile: boolean } {
  const set = NAMES.filter((name) => env[name]);
  const differing = set.filter((name) => !same(name, env[name]!, backup[name]));
  if (differing.length > 0) {
    return {
      refusal:
        `${differing.join(' and ')} in the environment differ${differing.length === 1 ? 's' : ''} from the backup's. ` +
        `Set ${differing.length === 1 ? 'it' : 'them'} to the backup's value (the backup file holds it) before ` +
        `restoring, or unset ${differing.length === 1 ? 'it' : 'them'} to keep the backup's in .data/secrets.json.`,
    };
  }
  return { writeSecretsFile: set.length < NAMES.length };
}
