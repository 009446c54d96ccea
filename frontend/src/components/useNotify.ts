import { useContext } from 'react';
import { DismissNotice, DismissNoticeContext, Notify, NotifyContext } from './notify-context';

/** `notify(text, severity)` shows a snackbar; the app's alert texts go through here verbatim. */
export function useNotify(): Notify {
  const notify = useContext(NotifyContext);
  if (!notify) throw new Error('useNotify must be used inside <NotificationsProvider>');
  return notify;
}

/** `dismiss(text)` takes that message away, on screen or waiting, once it no longer holds. */
export function useDismissNotice(): DismissNotice {
  return useContext(DismissNoticeContext);
}
