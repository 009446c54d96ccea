import Alert from '@mui/material/Alert';
import Snackbar from '@mui/material/Snackbar';
import { ReactNode, useCallback, useEffect, useRef, useState } from 'react';
import { enqueueNotice, QueuedNotice as Message, shownIsSuperseded } from './noticeQueue';
import { DismissNotice, DismissNoticeContext, Notify, NotifyContext } from './notify-context';

/** How long a message stays up at least once a newer one is waiting (long enough to read a line). */
const MIN_VISIBLE_MS = 1500;

/**
 * Shows one snackbar at a time. A message stays its full time only while nothing newer waits;
 * once one does, the current one closes after MIN_VISIBLE_MS, so what the screen says always
 * catches up quickly with the latest action instead of lagging seconds behind it. A success
 * replaces the errors before it at once (see noticeQueue).
 */
export function NotificationsProvider({ children }: { children: ReactNode }) {
  const [queue, setQueue] = useState<Message[]>([]);
  const [open, setOpen] = useState(true);
  const shownAt = useRef(0);
  const earlyClose = useRef<ReturnType<typeof setTimeout>>(undefined);
  const current = queue[0];
  // What the error on screen said no longer holds: it goes now, not after its minimum time.
  const superseded = shownIsSuperseded(queue);

  const notify = useCallback<Notify>((text, severity = 'info') => {
    setQueue((waiting) => enqueueNotice(waiting, { key: Date.now() + Math.random(), text, severity }));
  }, []);

  const shown = useRef(current);
  useEffect(() => {
    shown.current = current;
  }, [current]);
  const dismiss = useCallback<DismissNotice>((text) => {
    // Waiting copies go at once; the one on screen closes with its usual transition.
    setQueue((waiting) => waiting.filter((message, index) => index === 0 || message.text !== text));
    if (shown.current?.text === text) setOpen(false);
  }, []);

  const currentKey = current?.key;
  useEffect(() => {
    if (currentKey !== undefined) shownAt.current = Date.now();
  }, [currentKey]);

  // A newer message waits: cut the current one short once it has been readable for a moment.
  useEffect(() => {
    if (queue.length < 2 || !open || superseded || earlyClose.current) return;
    const wait = Math.max(0, shownAt.current + MIN_VISIBLE_MS - Date.now());
    earlyClose.current = setTimeout(() => {
      earlyClose.current = undefined;
      setOpen(false);
    }, wait);
  }, [queue.length, open, superseded]);

  useEffect(() => () => clearTimeout(earlyClose.current), []);

  const close = (_event?: unknown, reason?: string) => {
    if (reason !== 'clickaway') setOpen(false);
  };

  return (
    <NotifyContext.Provider value={notify}>
      <DismissNoticeContext.Provider value={dismiss}>{children}</DismissNoticeContext.Provider>
      {current && (
        <Snackbar
          key={current.key}
          open={open && !superseded}
          autoHideDuration={current.severity === 'error' ? 8000 : 5000}
          onClose={close}
          slotProps={{
            transition: {
              onExited: () => {
                clearTimeout(earlyClose.current);
                earlyClose.current = undefined;
                setQueue((waiting) => waiting.slice(1));
                setOpen(true);
              },
            },
          }}
          anchorOrigin={{ vertical: 'bottom', horizontal: 'center' }}
        >
          <Alert onClose={close} severity={current.severity} variant="filled" sx={{ width: '100%' }}>
            {current.text}
          </Alert>
        </Snackbar>
      )}
    </NotifyContext.Provider>
  );
}
