import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { Link as RouterLink, useNavigate, useSearchParams } from 'react-router-dom';
import { useResetPassword } from '../../api/passwordReset';
import { failureText } from '../../api/users';
import { useNotify } from '../../components/useNotify';
import { AuthCard } from '../Login/AuthCard';
import { newPasswordProblem } from './newPasswordForm';

/** /reset-password?token=…: a new password (twice) with the link from the e-mail, then /login. */
export function ResetPasswordPage() {
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const [password, setPassword] = useState('');
  const [repeated, setRepeated] = useState('');
  const reset = useResetPassword();
  const notify = useNotify();
  const navigate = useNavigate();
  const problem = newPasswordProblem(password, repeated);

  const submit = () => {
    if (problem || reset.isPending) return;
    reset.mutate(
      { token, new_password: password },
      {
        onSuccess: (answer) => {
          notify(answer.message, 'success');
          navigate('/login', { replace: true });
        },
        onError: (error) =>
          notify(
            failureText(error, { fallback: 'Reset failed', network: 'Error resetting the password' }),
            'error',
          ),
      },
    );
  };

  if (!token) {
    return (
      <AuthCard title="Reset password" onSubmit={() => undefined}>
        <Alert severity="error" sx={{ mb: 2 }}>
          This password reset link is invalid or has expired.
        </Alert>
        <Link component={RouterLink} to="/forgot-password">
          Ask for a new link
        </Link>
      </AuthCard>
    );
  }
  const mismatch = repeated !== '' && repeated !== password;
  return (
    <AuthCard title="Reset password" onSubmit={submit}>
      <Stack spacing={2} sx={{ mt: 1 }}>
        <Typography color="text.secondary">
          Choose a new password. Every session of your account will be signed out.
        </Typography>
        <TextField
          label="New password"
          type="password"
          autoComplete="new-password"
          required
          autoFocus
          helperText="At least 8 characters"
          value={password}
          onChange={(event) => setPassword(event.target.value)}
        />
        <TextField
          label="Repeat new password"
          type="password"
          autoComplete="new-password"
          required
          error={mismatch}
          helperText={mismatch ? 'The passwords do not match' : ' '}
          value={repeated}
          onChange={(event) => setRepeated(event.target.value)}
        />
        <Button type="submit" variant="contained" size="large" disabled={problem !== null || reset.isPending}>
          {reset.isPending ? 'Saving…' : 'Set new password'}
        </Button>
        <Typography variant="body2">
          <Link component={RouterLink} to="/forgot-password">
            Ask for a new link
          </Link>
        </Typography>
      </Stack>
    </AuthCard>
  );
}
