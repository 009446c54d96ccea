import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { FormEvent, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { ACCOUNT_EXPORT_URL, useDeleteAccount } from '../../api/leaving';
import { failureText } from '../../api/users';
import { useNotify } from '../../components/useNotify';

/** Download my data, and delete the account (password confirmed). */
export function LeavingSection() {
  const [deleting, setDeleting] = useState(false);
  return (
    <Paper
      variant="outlined"
      component="section"
      aria-labelledby="leaving-heading"
      sx={{ p: { xs: 3, sm: 4 }, mt: 3 }}
    >
      <Typography id="leaving-heading" variant="h5" component="h2" gutterBottom>
        Your data
      </Typography>
      <Typography color="text.secondary" sx={{ mb: 2 }}>
        Download everything kept about you (profile, purchases, uploads, tokens) as JSON, or delete your
        account. Datasets others bought from you stay readable for them.
      </Typography>
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
        <Button variant="outlined" href={ACCOUNT_EXPORT_URL} download>
          Download my data
        </Button>
        <Button variant="outlined" color="error" onClick={() => setDeleting(true)}>
          Delete account
        </Button>
      </Stack>
      <DeleteAccountDialog open={deleting} onClose={() => setDeleting(false)} />
    </Paper>
  );
}

function DeleteAccountDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const [password, setPassword] = useState('');
  const remove = useDeleteAccount();
  const notify = useNotify();
  const navigate = useNavigate();
  const close = () => {
    setPassword('');
    remove.reset();
    onClose();
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!password || remove.isPending) return;
    remove.mutate(password, {
      onSuccess: (answer) => {
        notify(answer.message, 'success');
        navigate('/');
      },
      onError: (error) =>
        notify(
          failureText(error, { fallback: 'Failed to delete account', network: 'Error deleting account' }),
          'error',
        ),
    });
  };
  return (
    <Dialog open={open} onClose={close} fullWidth maxWidth="xs">
      <form onSubmit={submit} noValidate>
        <DialogTitle>Delete account?</DialogTitle>
        <DialogContent>
          <DialogContentText sx={{ mb: 2 }}>
            Your profile, uploads and API key go for good. Enter your password to confirm.
          </DialogContentText>
          <TextField
            label="Password"
            type="password"
            autoComplete="current-password"
            required
            fullWidth
            value={password}
            onChange={(event) => setPassword(event.target.value)}
          />
        </DialogContent>
        <DialogActions>
          <Button onClick={close}>Cancel</Button>
          <Button type="submit" color="error" variant="contained" disabled={!password || remove.isPending}>
            Delete account
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}
