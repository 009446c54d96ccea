import { ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router-dom';
import { loginPath } from './loginReturn';
import { useSession } from './useSession';

/** Renders its children only for a signed-in user; nothing while unknown; otherwise sends to /login (and back). */
export function RequireAuth({ children }: { children: ReactNode }) {
  const { status } = useSession();
  const location = useLocation();
  if (status === 'unknown') return null;
  if (status === 'out') return <Navigate to={loginPath(location)} replace />;
  return <>{children}</>;
}
