import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { FormEvent, useEffect, useRef, useState } from 'react';
import { useEnableTwoFactor, useTwoFactorSetup } from '../../api/twoFactor';
import { failureText } from '../../api/users';
import { useNotify } from '../../components/useNotify';
import { loginCodeInput } from '../Login/loginForm';
import { RecoveryCodesView } from './RecoveryCodesView';

/** Scan the QR code (or type the secret), confirm with a first code, then keep the recovery codes. */
export function EnableTwoFactorDialog(props: { open: boolean; email: string; onClose: () => void }) {
  const setup = useTwoFactorSetup();
  const enable = useEnableTwoFactor();
  const notify = useNotify();
  const [code, setCode] = useState('');
  const input = loginCodeInput(code, false);
  const { mutate: startSetup, reset: resetSetup } = setup;

  // Once per opening: each setup makes a new secret, and React may run an effect twice.
  const started = useRef(false);
  useEffect(() => {
    if (!props.open) started.current = false;
    else if (!started.current) {
      started.current = true;
      startSetup();
    }
  }, [props.open, startSetup]);

  const close = () => {
    setCode('');
    resetSetup();
    enable.reset();
    props.onClose();
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!input || !('code' in input) || enable.isPending) return;
    enable.mutate(input.code, {
      onSuccess: () => notify('Two-factor sign-in is on.', 'success'),
      onError: (error) =>
        notify(
          failureText(error, { fallback: 'Failed to enable 2FA', network: 'Error enabling 2FA' }),
          'error',
        ),
    });
  };

  return (
    <Dialog open={props.open} onClose={close} fullWidth maxWidth="sm">
      <form onSubmit={submit} noValidate>
        <DialogTitle>Enable 2FA</DialogTitle>
        <DialogContent>
          {enable.isSuccess ? (
            <RecoveryCodesView codes={enable.data.recovery_codes} email={props.email} />
          ) : (
            <Stack spacing={2}>
              <DialogContentText>
                Scan the QR code with an authenticator app (or type the secret key), then enter the 6-digit
                code it shows.
              </DialogContentText>
              {setup.data ? (
                <>
                  <Box
                    component="img"
                    src={setup.data.qr_code}
                    alt="QR code for your authenticator app"
                    sx={{ width: 200, height: 200, alignSelf: 'center' }}
                  />
                  <Typography
                    sx={{ fontFamily: 'monospace', wordBreak: 'break-all' }}
                    aria-label="Secret key"
                  >
                    {setup.data.secret}
                  </Typography>
                </>
              ) : setup.isError ? (
                <Typography color="error">
                  {failureText(setup.error, {
                    fallback: 'Setup failed',
                    network: 'Error starting the setup',
                  })}
                </Typography>
              ) : (
                <Skeleton variant="rounded" width={200} height={200} sx={{ alignSelf: 'center' }} />
              )}
              <TextField
                label="Authentication code"
                autoComplete="one-time-code"
                inputMode="numeric"
                required
                value={code}
                onChange={(event) => setCode(event.target.value)}
              />
            </Stack>
          )}
        </DialogContent>
        <DialogActions>
          {enable.isSuccess ? (
            <Button variant="contained" onClick={close}>
              Done
            </Button>
          ) : (
            <>
              <Button onClick={close}>Cancel</Button>
              <Button type="submit" variant="contained" disabled={!input || !setup.data || enable.isPending}>
                {enable.isPending ? 'Checking…' : 'Confirm'}
              </Button>
            </>
          )}
        </DialogActions>
      </form>
    </Dialog>
  );
}
