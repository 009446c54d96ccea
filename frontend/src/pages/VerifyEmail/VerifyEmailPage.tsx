import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Container from '@mui/material/Container';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useCallback, useEffect, useRef } from 'react';
import { useNavigate, useParams } from 'react-router-dom';
import { useVerifyEmail } from '../../api/users';
import { useSession } from '../../auth/useSession';
import { useNotify } from '../../components/useNotify';
import { verifyOutcome } from './verifyOutcome';

/** Opens from the e-mailed link: verifies once, then goes to /login (or /register when refused). */
export function VerifyEmailPage() {
  const { token = '' } = useParams();
  const verify = useVerifyEmail();
  const notify = useNotify();
  const navigate = useNavigate();
  const { status } = useSession();
  const loggedIn = status === 'in';

  const run = useCallback(() => {
    const finish = (error: unknown | null) => {
      const outcome = verifyOutcome(error, loggedIn);
      notify(outcome.text, outcome.severity);
      if (outcome.next) navigate(outcome.next, { replace: true });
    };
    verify.mutate(token, { onSuccess: () => finish(null), onError: finish });
  }, [verify, token, notify, navigate, loggedIn]);

  // A link works once: the effect must not fire twice (StrictMode mounts effects twice in development).
  const started = useRef(false);
  useEffect(() => {
    // Whether someone is logged in decides where a used link leads: wait for the session first.
    if (started.current || status === 'unknown') return;
    started.current = true;
    run();
  }, [run, status]);

  const networkFailed = verify.isError && verifyOutcome(verify.error).next === null;
  return (
    <Container maxWidth="sm" sx={{ py: 8 }}>
      <Stack spacing={3} sx={{ alignItems: 'center', textAlign: 'center' }}>
        <Typography variant="h4" component="h1">
          Email verification
        </Typography>
        {networkFailed ? (
          <>
            <Typography color="error">Error verifying</Typography>
            <Button variant="contained" onClick={run}>
              Try again
            </Button>
          </>
        ) : (
          <>
            <CircularProgress aria-label="Verifying" />
            <Typography color="text.secondary">Verifying your email…</Typography>
          </>
        )}
      </Stack>
    </Container>
  );
}
