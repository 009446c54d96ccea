import ArrowBackIcon from '@mui/icons-material/ArrowBack';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Container from '@mui/material/Container';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { Link as RouterLink, useLocation } from 'react-router-dom';
import { loginPath } from '../../auth/loginReturn';
import { useSession } from '../../auth/useSession';

export const PRIVATE_ITEM_HINT = 'If this is your private item, log in to see it.';

/**
 * A detail screen that cannot show its item, with a way on: back to the DataStore, and for a
 * visitor the login (a private item looks missing to anyone but its owner).
 */
export function DetailMessage({ text }: { text: string }) {
  const { status } = useSession();
  const location = useLocation();
  return (
    <Container maxWidth="md" sx={{ py: 6 }}>
      <Stack spacing={2}>
        <Alert severity="warning" role="alert">
          {text}
        </Alert>
        {status === 'out' && (
          <Typography color="text.secondary">
            {PRIVATE_ITEM_HINT}{' '}
            <Button component={RouterLink} to={loginPath(location)} size="small" variant="outlined">
              Log in
            </Button>
          </Typography>
        )}
        <Button
          component={RouterLink}
          to="/datastore"
          startIcon={<ArrowBackIcon />}
          sx={{ alignSelf: 'flex-start' }}
        >
          Back to DataStore
        </Button>
      </Stack>
    </Container>
  );
}
