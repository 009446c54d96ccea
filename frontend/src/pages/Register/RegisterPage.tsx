import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import FormControlLabel from '@mui/material/FormControlLabel';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { Navigate, Link as RouterLink, useNavigate } from 'react-router-dom';
import { failureText, useRegister } from '../../api/users';
import { DEFAULT_AFTER_LOGIN } from '../../auth/loginReturn';
import { useSession } from '../../auth/useSession';
import { useNotify } from '../../components/useNotify';
import { AuthCard } from '../Login/AuthCard';
import { canSubmitRegistration, EMPTY_REGISTER_FORM, RegisterForm, registrationBody } from './registerForm';

export function RegisterPage() {
  const [form, setForm] = useState<RegisterForm>(EMPTY_REGISTER_FORM);
  const register = useRegister();
  const notify = useNotify();
  const navigate = useNavigate();
  const change = (patch: Partial<RegisterForm>) => setForm((current) => ({ ...current, ...patch }));
  const ready = canSubmitRegistration(form) && !register.isPending;
  const { status } = useSession();

  // Someone already logged in has an account: nothing to register.
  if (status === 'in') return <Navigate to={DEFAULT_AFTER_LOGIN} replace />;

  const submit = () => {
    if (!ready) return;
    register.mutate(registrationBody(form), {
      onSuccess: () => {
        notify('Registration successful. Please verify your email.', 'success');
        navigate('/login');
      },
      onError: (error) =>
        notify(
          failureText(error, { fallback: 'Registration failed', network: 'Error registering' }),
          'error',
        ),
    });
  };

  return (
    <AuthCard title="Register" onSubmit={submit}>
      <Stack spacing={2} sx={{ mt: 1 }}>
        <TextField
          label="Name"
          autoComplete="name"
          required
          autoFocus
          value={form.name}
          onChange={(event) => change({ name: event.target.value })}
        />
        <TextField
          label="Email"
          type="email"
          autoComplete="email"
          required
          value={form.email}
          onChange={(event) => change({ email: event.target.value })}
        />
        <TextField
          label="Password"
          type="password"
          autoComplete="new-password"
          required
          helperText="At least 8 characters"
          value={form.password}
          onChange={(event) => change({ password: event.target.value })}
        />
        <FormControlLabel
          control={
            <Checkbox
              checked={form.acceptedTerms}
              onChange={(event) => change({ acceptedTerms: event.target.checked })}
              required
            />
          }
          label={
            <span>
              I accept the{' '}
              <Link component={RouterLink} to="/terms" target="_blank" rel="noopener">
                terms
              </Link>
            </span>
          }
        />
        <Button type="submit" variant="contained" size="large" disabled={!ready}>
          {register.isPending ? 'Registering…' : 'Register'}
        </Button>
        <Typography variant="body2" color="text.secondary">
          Already registered?{' '}
          <Link component={RouterLink} to="/login">
            Login
          </Link>
        </Typography>
      </Stack>
    </AuthCard>
  );
}
