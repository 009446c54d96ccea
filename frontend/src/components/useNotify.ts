import { useContext } from 'react';
import { Notify, NotifyContext } from './notify-context';

/** `notify(text, severity)` shows a snackbar; the app's alert texts go through here verbatim. */
export function useNotify(): Notify {
  const notify = useContext(NotifyContext);
  if (!notify) throw new Error('useNotify must be used inside <NotificationsProvider>');
  return notify;
}
