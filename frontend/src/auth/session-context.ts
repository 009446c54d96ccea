import { createContext } from 'react';

/** The signed-in user as `GET users/me` returns it; only the fields the shell relies on are typed. */
export interface SessionUser {
  id: string;
  email: string;
  name?: string;
  api_key?: string | null;
  pro_user?: boolean | number;
  [field: string]: unknown;
}

export type SessionStatus = 'unknown' | 'in' | 'out';

export interface Session {
  user: SessionUser | null;
  status: SessionStatus;
  /** Asks the server again who is signed in (after login, logout or a profile change). */
  refresh: () => Promise<SessionUser | null>;
  /** Sets the user directly, e.g. from a login answer, without another round trip. */
  setUser: (user: SessionUser | null) => void;
}

export const SessionContext = createContext<Session | null>(null);
