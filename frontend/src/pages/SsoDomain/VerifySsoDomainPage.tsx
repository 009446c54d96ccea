import Button from '@mui/material/Button';
import Container from '@mui/material/Container';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useSearchParams } from 'react-router-dom';
import { useVerifySsoDomain } from '../../api/sso';
import { refusalOr } from '../../api/client';

/**
 * /sso/verify-domain?token=…, from the mail sent to an address at the domain. It confirms only
 * on the button, not on opening: mail scanners that open links must not verify a domain.
 */
export function VerifySsoDomainPage() {
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const verify = useVerifySsoDomain();

  return (
    <Container maxWidth="sm" sx={{ py: 8 }}>
      <Stack spacing={3} sx={{ alignItems: 'center', textAlign: 'center' }}>
        <Typography variant="h4" component="h1">
          Confirm domain
        </Typography>
        {verify.isSuccess ? (
          <Typography role="status">
            {verify.data.domain} is verified: its addresses can now sign in with single sign-on.
          </Typography>
        ) : (
          <>
            <Typography color="text.secondary">
              An organisation asked to sign in people with addresses at this domain through its own provider.
            </Typography>
            {verify.isError && (
              <Typography color="error" role="alert">
                {refusalOr(verify.error, 'The domain could not be confirmed. Please try again.')}
              </Typography>
            )}
            <Button
              variant="contained"
              disabled={!token || verify.isPending}
              onClick={() => verify.mutate(token)}
            >
              Confirm domain
            </Button>
          </>
        )}
      </Stack>
    </Container>
  );
}
