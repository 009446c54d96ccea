import Button from '@mui/material/Button';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { failureText, useLoginCode } from '../../api/users';
import { useNotify } from '../../components/useNotify';
import { AuthCard } from './AuthCard';
import { loginCodeInput } from './loginForm';

/** The second login step: a code from the authenticator app, or one recovery code. */
export function LoginCodeStep(props: { onDone: () => void; onRestart: () => void }) {
  const [code, setCode] = useState('');
  const [useRecoveryCode, setUseRecoveryCode] = useState(false);
  const loginCode = useLoginCode();
  const notify = useNotify();
  const input = loginCodeInput(code, useRecoveryCode);

  const submit = () => {
    if (!input || loginCode.isPending) return;
    loginCode.mutate(input, {
      onSuccess: props.onDone,
      onError: (error) => {
        setCode('');
        notify(failureText(error, { fallback: 'Login failed', network: 'Error logging in' }), 'error');
      },
    });
  };

  return (
    <AuthCard title="Two-factor sign-in" onSubmit={submit}>
      <Stack spacing={2} sx={{ mt: 1 }}>
        <Typography color="text.secondary">
          {useRecoveryCode
            ? 'Enter one of your recovery codes. Each code works once.'
            : 'Enter the 6-digit code from your authenticator app.'}
        </Typography>
        <TextField
          label={useRecoveryCode ? 'Recovery code' : 'Authentication code'}
          autoComplete="one-time-code"
          inputMode={useRecoveryCode ? 'text' : 'numeric'}
          required
          autoFocus
          value={code}
          onChange={(event) => setCode(event.target.value)}
        />
        <Button type="submit" variant="contained" size="large" disabled={!input || loginCode.isPending}>
          {loginCode.isPending ? 'Checking…' : 'Verify'}
        </Button>
        <Typography variant="body2">
          <Link component="button" type="button" onClick={() => setUseRecoveryCode(!useRecoveryCode)}>
            {useRecoveryCode ? 'Use the code from your app' : 'Use a recovery code'}
          </Link>
          {' · '}
          <Link component="button" type="button" onClick={props.onRestart}>
            Start again
          </Link>
        </Typography>
      </Stack>
    </AuthCard>
  );
}
