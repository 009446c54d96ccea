import { ReactNode, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { api, ApiError } from '../api/client';
import { Session, SessionContext, SessionStatus, SessionUser } from './session-context';

async function fetchCurrentUser(): Promise<SessionUser | null> {
  try {
    return await api<SessionUser>('users/me');
  } catch (error) {
    // 401 means "not signed in"; any other failure also leaves the visitor logged out rather than stuck.
    if (error instanceof ApiError && error.status !== 401)
      console.warn('Session check failed', error.message);
    return null;
  }
}

/** Checks the session once at start (GET users/me) and shares the result with the whole app. */
export function SessionProvider({ children }: { children: ReactNode }) {
  const [user, setUserState] = useState<SessionUser | null>(null);
  const [status, setStatus] = useState<SessionStatus>('unknown');

  const setUser = useCallback((next: SessionUser | null) => {
    setUserState(next);
    setStatus(next ? 'in' : 'out');
  }, []);

  const refresh = useCallback(async () => {
    const current = await fetchCurrentUser();
    setUser(current);
    return current;
  }, [setUser]);

  // Once per app start, even when StrictMode mounts effects twice in development.
  const started = useRef(false);
  useEffect(() => {
    if (started.current) return;
    started.current = true;
    void fetchCurrentUser().then(setUser);
  }, [setUser]);

  const session = useMemo<Session>(
    () => ({ user, status, refresh, setUser }),
    [user, status, refresh, setUser],
  );
  return <SessionContext.Provider value={session}>{children}</SessionContext.Provider>;
}
