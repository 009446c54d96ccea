import type { DataSource } from 'typeorm';

export type UserFlag = 'pro' | 'editor';

const COLUMNS: Record<UserFlag, 'pro_user' | 'blog_editor'> = { pro: 'pro_user', editor: 'blog_editor' };

export interface FlagArguments {
  flag: UserFlag;
  email: string;
  enabled: boolean;
}

export const FLAG_USAGE =
  'Usage: npm run user:pro -- <email> [on|off]   or   npm run user:editor -- <email> [on|off]';

/** Reads `<pro|editor> <email> [on|off]` (default on); throws with the usage text otherwise. */
export function parseFlagArguments(argv: string[]): FlagArguments {
  const [flag, email, state = 'on', ...rest] = argv;
  if ((flag !== 'pro' && flag !== 'editor') || !email || !['on', 'off'].includes(state) || rest.length > 0) {
    throw new Error(FLAG_USAGE);
  }
  return { flag, email, enabled: state === 'on' };
}

/** Sets pro_user or blog_editor for the account with that e-mail (case-insensitive); false if none. */
export async function setUserFlag(dataSource: DataSource, args: FlagArguments): Promise<boolean> {
  const [rows] = await dataSource.query(
    `UPDATE users SET ${COLUMNS[args.flag]} = $2, updated_at = now() WHERE lower(email) = lower($1) RETURNING id`,
    [args.email, args.enabled],
  );
  return rows.length > 0;
}
