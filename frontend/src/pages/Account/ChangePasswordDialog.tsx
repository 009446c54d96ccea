import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import FormControlLabel from '@mui/material/FormControlLabel';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { FormEvent, useState } from 'react';
import { failureText, useChangePassword } from '../../api/users';
import { useNotify } from '../../components/useNotify';
import { EMPTY_PASSWORD_FORM, PasswordForm, passwordFormProblem } from './passwordForm';

/**
 * Current password + new one twice; on success every other session of the user ends, and unless
 * the user unticks it, the API key (a new one is issued) and every named token end too.
 */
export function ChangePasswordDialog(props: { open: boolean; onClose: () => void }) {
  const [form, setForm] = useState<PasswordForm>(EMPTY_PASSWORD_FORM);
  const [rotateKey, setRotateKey] = useState(true);
  const changePassword = useChangePassword();
  const notify = useNotify();
  const problem = passwordFormProblem(form);
  const change = (patch: Partial<PasswordForm>) => setForm((current) => ({ ...current, ...patch }));

  const close = () => {
    setForm(EMPTY_PASSWORD_FORM);
    setRotateKey(true);
    changePassword.reset();
    props.onClose();
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (problem || changePassword.isPending) return;
    changePassword.mutate(
      { current_password: form.current, new_password: form.next, rotate_api_key: rotateKey },
      {
        onSuccess: () => {
          notify(
            rotateKey
              ? 'Password changed. Other sessions have been logged out, your API key was replaced and your API tokens were ended.'
              : 'Password changed. Other sessions have been logged out.',
            'success',
          );
          close();
        },
        onError: (error) =>
          notify(
            failureText(error, { fallback: 'Failed to change password', network: 'Error changing password' }),
            'error',
          ),
      },
    );
  };

  // Show the confirmation hint only once the user has started typing it.
  const mismatch = form.confirmation !== '' && form.confirmation !== form.next;
  return (
    <Dialog open={props.open} onClose={close} fullWidth maxWidth="xs">
      <form onSubmit={submit} noValidate>
        <DialogTitle>Change Password</DialogTitle>
        <DialogContent>
          <DialogContentText sx={{ mb: 2 }}>Your other sessions will be logged out.</DialogContentText>
          <Stack spacing={2}>
            <TextField
              label="Current password"
              type="password"
              autoComplete="current-password"
              required
              autoFocus
              value={form.current}
              onChange={(event) => change({ current: event.target.value })}
            />
            <TextField
              label="New password"
              type="password"
              autoComplete="new-password"
              required
              helperText="At least 8 characters"
              value={form.next}
              onChange={(event) => change({ next: event.target.value })}
            />
            <TextField
              label="Repeat new password"
              type="password"
              autoComplete="new-password"
              required
              error={mismatch}
              helperText={mismatch ? 'The passwords do not match' : ' '}
              value={form.confirmation}
              onChange={(event) => change({ confirmation: event.target.value })}
            />
            <FormControlLabel
              control={
                <Checkbox checked={rotateKey} onChange={(event) => setRotateKey(event.target.checked)} />
              }
              label="Also end my API key and API tokens (tools using them stop working; a new API key is issued)"
            />
          </Stack>
        </DialogContent>
        <DialogActions>
          <Button onClick={close}>Cancel</Button>
          <Button type="submit" variant="contained" disabled={problem !== null || changePassword.isPending}>
            {changePassword.isPending ? 'Saving…' : 'Change Password'}
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}
