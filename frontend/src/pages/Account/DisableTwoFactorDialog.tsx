import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { FormEvent, useState } from 'react';
import { useDisableTwoFactor } from '../../api/twoFactor';
import { failureText } from '../../api/users';
import { useNotify } from '../../components/useNotify';
import { loginCodeInput } from '../Login/loginForm';

/** Turning two-factor sign-in off needs the password and a code from the app (or a recovery code). */
export function DisableTwoFactorDialog(props: { open: boolean; onClose: () => void }) {
  const [password, setPassword] = useState('');
  const [code, setCode] = useState('');
  const disable = useDisableTwoFactor();
  const notify = useNotify();
  // Six digits are an app code; anything longer is taken as a recovery code.
  const factor = loginCodeInput(code, !/^[\d\s]+$/.test(code));

  const close = () => {
    setPassword('');
    setCode('');
    disable.reset();
    props.onClose();
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!factor || password === '' || disable.isPending) return;
    disable.mutate(
      { password, ...factor },
      {
        onSuccess: (answer) => {
          notify(answer.message, 'success');
          close();
        },
        onError: (error) =>
          notify(
            failureText(error, { fallback: 'Failed to disable 2FA', network: 'Error disabling 2FA' }),
            'error',
          ),
      },
    );
  };

  return (
    <Dialog open={props.open} onClose={close} fullWidth maxWidth="xs">
      <form onSubmit={submit} noValidate>
        <DialogTitle>Disable 2FA</DialogTitle>
        <DialogContent>
          <DialogContentText sx={{ mb: 2 }}>Enter your password and a code from your app.</DialogContentText>
          <Stack spacing={2}>
            <TextField
              label="Password"
              type="password"
              autoComplete="current-password"
              required
              autoFocus
              value={password}
              onChange={(event) => setPassword(event.target.value)}
            />
            <TextField
              label="Authentication or recovery code"
              autoComplete="one-time-code"
              required
              value={code}
              onChange={(event) => setCode(event.target.value)}
            />
          </Stack>
        </DialogContent>
        <DialogActions>
          <Button onClick={close}>Cancel</Button>
          <Button
            type="submit"
            color="error"
            variant="contained"
            disabled={!factor || password === '' || disable.isPending}
          >
            {disable.isPending ? 'Saving…' : 'Disable 2FA'}
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}
