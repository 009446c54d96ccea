import { useCallback } from 'react';
import { useNavigate } from 'react-router-dom';
import { useLogout } from '../api/users';
import { useNotify } from './useNotify';

/** Logout from the menus and the account screen: end the session, then go home. */
export function useLogoutAndGoHome(): () => Promise<void> {
  const { mutateAsync: logout } = useLogout();
  const navigate = useNavigate();
  const notify = useNotify();
  return useCallback(async () => {
    try {
      await logout();
    } catch {
      notify('Logout failed', 'error');
    }
    navigate('/');
  }, [logout, navigate, notify]);
}
