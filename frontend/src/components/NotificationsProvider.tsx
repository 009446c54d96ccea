import Alert from '@mui/material/Alert';
import Snackbar from '@mui/material/Snackbar';
import { ReactNode, useCallback, useState } from 'react';
import { Notify, NotifyContext, NotifySeverity } from './notify-context';

interface Message {
  key: number;
  text: string;
  severity: NotifySeverity;
}

/** Shows one snackbar at a time; messages that arrive meanwhile wait their turn. */
export function NotificationsProvider({ children }: { children: ReactNode }) {
  const [queue, setQueue] = useState<Message[]>([]);
  const [open, setOpen] = useState(true);
  const current = queue[0];

  const notify = useCallback<Notify>((text, severity = 'info') => {
    setQueue((waiting) => [...waiting, { key: Date.now() + Math.random(), text, severity }]);
    setOpen(true);
  }, []);

  const close = (_event?: unknown, reason?: string) => {
    if (reason !== 'clickaway') setOpen(false);
  };

  return (
    <NotifyContext.Provider value={notify}>
      {children}
      {current && (
        <Snackbar
          key={current.key}
          open={open}
          autoHideDuration={current.severity === 'error' ? 8000 : 5000}
          onClose={close}
          slotProps={{
            transition: {
              onExited: () => {
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
