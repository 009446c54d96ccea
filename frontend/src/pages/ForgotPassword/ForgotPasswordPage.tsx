import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { Link as RouterLink } from 'react-router-dom';
import { useForgotPassword } from '../../api/passwordReset';
import { failureText } from '../../api/users';
import { useNotify } from '../../components/useNotify';
import { AuthCard } from '../Login/AuthCard';

/** Asks for a reset link by e-mail; the answer is the same whether the address has an account. */
export function ForgotPasswordPage() {
  const [email, setEmail] = useState('');
  const forgot = useForgotPassword();
  const notify = useNotify();

  const submit = () => {
    if (email.trim() === '' || forgot.isPending) return;
    forgot.mutate(email.trim(), {
      onError: (error) =>
        notify(
          failureText(error, { fallback: 'Request failed', network: 'Error sending the request' }),
          'error',
        ),
    });
  };

  return (
    <AuthCard title="Forgot password" onSubmit={submit}>
      <Stack spacing={2} sx={{ mt: 1 }}>
        {forgot.isSuccess ? (
          <Alert severity="success">{forgot.data.message}</Alert>
        ) : (
          <>
            <Typography color="text.secondary">
              Enter the e-mail address of your account and we will send you a link to choose a new password.
            </Typography>
            <TextField
              label="Email"
              type="email"
              autoComplete="email"
              required
              autoFocus
              value={email}
              onChange={(event) => setEmail(event.target.value)}
            />
            <Button
              type="submit"
              variant="contained"
              size="large"
              disabled={email.trim() === '' || forgot.isPending}
            >
              {forgot.isPending ? 'Sending…' : 'Send reset link'}
            </Button>
          </>
        )}
        <Typography variant="body2">
          <Link component={RouterLink} to="/login">
            Back to login
          </Link>
        </Typography>
      </Stack>
    </AuthCard>
  );
}
