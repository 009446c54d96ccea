import { ReactNode } from 'react';
import { Navigate } from 'react-router-dom';
import { useSession } from './useSession';

/** Renders its children only for a signed-in user; nothing while unknown; otherwise sends to /login. */
export function RequireAuth({ children }: { children: ReactNode }) {
  const { status } = useSession();
  if (status === 'unknown') return null;
  if (status === 'out') return <Navigate to="/login" replace />;
  return <>{children}</>;
}
