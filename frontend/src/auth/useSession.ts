import { CurrentUser, useCurrentUser } from '../api/users';

export type SessionStatus = 'unknown' | 'in' | 'out';

export interface Session {
  user: CurrentUser | null;
  /** 'unknown' until the first answer of GET users/session: guarded screens render nothing meanwhile. */
  status: SessionStatus;
}

/** Who is signed in; the app asks the server once when it starts (the header always asks). */
export function useSession(): Session {
  const me = useCurrentUser();
  const user = me.data ?? null;
  return { user, status: me.isPending ? 'unknown' : user ? 'in' : 'out' };
}
