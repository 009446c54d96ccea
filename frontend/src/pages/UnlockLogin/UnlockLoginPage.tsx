import Button from '@mui/material/Button';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { Link as RouterLink, useNavigate, useSearchParams } from 'react-router-dom';
import { useUnlockLogin } from '../../api/loginUnlock';
import { failureText } from '../../api/users';
import { useNotify } from '../../components/useNotify';
import { AuthCard } from '../Login/AuthCard';

/**
 * /unlock-login?token=…, from the mail sent when an account is locked. The link works once, so it
 * is used only on a click: a mail program that opens links to scan them must not use it up.
 */
export function UnlockLoginPage() {
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const unlock = useUnlockLogin();
  const notify = useNotify();
  const navigate = useNavigate();

  const submit = () => {
    if (unlock.isPending) return;
    unlock.mutate(token, {
      onSuccess: (answer) => {
        notify(answer.message, 'success');
        navigate('/login', { replace: true });
      },
      onError: (error) =>
        notify(failureText(error, { fallback: 'Unlock failed', network: 'Error unlocking' }), 'error'),
    });
  };

  return (
    <AuthCard title="Unlock sign-in" onSubmit={submit}>
      <Stack spacing={2} sx={{ mt: 1 }}>
        <Typography color="text.secondary">
          Sign-ins to your account from new browsers were stopped after too many failed attempts. Unlock this
          browser, then log in with your password.
        </Typography>
        <Button type="submit" variant="contained" size="large" disabled={token === '' || unlock.isPending}>
          {unlock.isPending ? 'Unlocking…' : 'Unlock this browser'}
        </Button>
        <Typography variant="body2">
          <Link component={RouterLink} to="/login">
            Back to login
          </Link>
        </Typography>
      </Stack>
    </AuthCard>
  );
}
