import { useCallback } from 'react';
import { useNavigate } from 'react-router-dom';
import { api } from '../api/client';
import { useSession } from '../auth/useSession';
import { useNotify } from './useNotify';

/** POST users/logout, then ask the server who is signed in now and go home. */
export function useLogout(): () => Promise<void> {
  const { refresh } = useSession();
  const navigate = useNavigate();
  const notify = useNotify();
  return useCallback(async () => {
    try {
      await api('users/logout', { method: 'POST' });
    } catch {
      notify('Logout failed', 'error');
    }
    await refresh();
    navigate('/');
  }, [refresh, navigate, notify]);
}
