import Button from '@mui/material/Button';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { Navigate, Link as RouterLink, useNavigate, useSearchParams } from 'react-router-dom';
import { startSsoByEmail } from '../../api/sso';
import { failureText, isTwoFactorRequired, useLogin } from '../../api/users';
import { pathAfterLogin } from '../../auth/loginReturn';
import { useSession } from '../../auth/useSession';
import { useNotify } from '../../components/useNotify';
import { AuthCard } from './AuthCard';
import { LoginCodeStep } from './LoginCodeStep';
import { canSubmitLogin } from './loginForm';

/**
 * 'Login successful', then back to the screen that asked for a login (`next`), else /manage. An
 * account with two-factor sign-in is asked for a code after the password.
 */
export function LoginPage() {
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const login = useLogin();
  const notify = useNotify();
  const navigate = useNavigate();
  const { status } = useSession();
  const [params] = useSearchParams();
  const destination = pathAfterLogin(params.get('next'));
  // Set on submit: the session turns 'in' before this screen has said 'Login successful'.
  const [submitted, setSubmitted] = useState(false);
  const [codeNeeded, setCodeNeeded] = useState(false);
  const [ssoStarting, setSsoStarting] = useState(false);

  // Someone already logged in has nothing to do here.
  if (status === 'in' && !submitted) return <Navigate to={destination} replace />;

  const finish = () => {
    notify('Login successful', 'success');
    navigate(destination, { replace: true });
  };

  if (codeNeeded) {
    return (
      <LoginCodeStep
        onDone={finish}
        onRestart={() => {
          setCodeNeeded(false);
          setSubmitted(false);
          setPassword('');
        }}
      />
    );
  }

  const submit = () => {
    if (!canSubmitLogin(email, password) || login.isPending) return;
    setSubmitted(true);
    login.mutate(
      { email: email.trim(), password },
      {
        onSuccess: (answer) => (isTwoFactorRequired(answer) ? setCodeNeeded(true) : finish()),
        onError: (error) => {
          setSubmitted(false);
          notify(failureText(error, { fallback: 'Login failed', network: 'Error logging in' }), 'error');
        },
      },
    );
  };

  // Single sign-on by the e-mail's domain: on to the organisation's provider, which sends the browser back signed in.
  const startSso = () => {
    setSsoStarting(true);
    startSsoByEmail(email.trim()).then(
      (answer) => window.location.assign(answer.authorization_url),
      (error: unknown) => {
        setSsoStarting(false);
        notify(
          failureText(error, { fallback: 'Single sign-on failed', network: 'Error logging in' }),
          'error',
        );
      },
    );
  };

  return (
    <AuthCard title="Login" onSubmit={submit}>
      <Stack spacing={2} sx={{ mt: 1 }}>
        <TextField
          label="Email"
          type="email"
          autoComplete="email"
          required
          autoFocus
          value={email}
          onChange={(event) => setEmail(event.target.value)}
        />
        <TextField
          label="Password"
          type="password"
          autoComplete="current-password"
          required
          value={password}
          onChange={(event) => setPassword(event.target.value)}
        />
        <Button
          type="submit"
          variant="contained"
          size="large"
          disabled={!canSubmitLogin(email, password) || login.isPending}
        >
          {login.isPending ? 'Logging in…' : 'Login'}
        </Button>
        <Button variant="outlined" disabled={!email.includes('@') || ssoStarting} onClick={startSso}>
          Sign in with SSO
        </Button>
        <Typography variant="body2">
          <Link component={RouterLink} to="/forgot-password">
            Forgot password?
          </Link>
        </Typography>
        <Typography variant="body2" color="text.secondary">
          No account yet?{' '}
          <Link component={RouterLink} to="/register">
            Register
          </Link>
        </Typography>
      </Stack>
    </AuthCard>
  );
}
