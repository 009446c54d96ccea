import ArrowBackIcon from '@mui/icons-material/ArrowBack';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Container from '@mui/material/Container';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { Link as RouterLink } from 'react-router-dom';
import { usePageTitle } from '../../app/usePageTitle';
import { LiveBadge } from '../../components/LiveBadge';
import { OwnedNote } from '../../components/OwnedNote';
import type { DetailAction } from '../../features/detail/detailRules';

interface Props {
  title: string;
  isConnector: boolean;
  isPrivate: boolean;
  /** A dataset published from a connection and kept fresh. */
  isLive?: boolean;
  /** None on the user's own dataset: "You own this" and a way to manage it instead. */
  action: DetailAction | null;
  /** The user uploaded this connector: said beside its Connect/Remove, with a link to their uploads. */
  ownConnector?: boolean;
  busy?: boolean;
  onAction: () => void;
}

export function DetailHero({
  title,
  isConnector,
  isPrivate,
  isLive,
  action,
  ownConnector,
  busy,
  onAction,
}: Props) {
  // The tab reads the item's name, as the server's page head of a public listing does.
  usePageTitle(title);
  return (
    <Box
      component="header"
      sx={{
        color: 'common.white',
        background: 'linear-gradient(135deg, #2c387e 0%, #3f51b5 60%, #00897b 100%)',
        py: { xs: 4, md: 6 },
      }}
    >
      <Container maxWidth="lg">
        <Link
          component={RouterLink}
          to="/datastore"
          color="inherit"
          sx={{ display: 'inline-flex', alignItems: 'center', gap: 0.5, mb: 2 }}
        >
          <ArrowBackIcon fontSize="small" /> Back to DataStore
        </Link>
        <Stack
          direction={{ xs: 'column', sm: 'row' }}
          spacing={2}
          sx={{ alignItems: { sm: 'center' }, justifyContent: 'space-between' }}
        >
          <Box>
            <Stack direction="row" spacing={1} sx={{ mb: 1 }}>
              {isConnector && (
                <Chip label="API" size="small" sx={{ bgcolor: 'secondary.main', color: 'common.white' }} />
              )}
              {isLive && <LiveBadge onDark />}
              {isPrivate && (
                <Chip label="Private" size="small" sx={{ bgcolor: 'warning.main', color: 'common.white' }} />
              )}
            </Stack>
            <Typography variant="h2" component="h1" sx={{ overflowWrap: 'anywhere' }}>
              {title}
            </Typography>
          </Box>
          {action ? (
            <Stack
              spacing={1}
              sx={{ alignItems: { xs: 'stretch', sm: 'flex-end' }, alignSelf: { sm: 'center' } }}
            >
              <Button
                variant="contained"
                size="large"
                color={action === 'Remove' ? 'error' : 'secondary'}
                onClick={onAction}
                disabled={busy}
                sx={{ minWidth: 140 }}
              >
                {action}
              </Button>
              {ownConnector && <OwnedNote onDark linkLabel="Your uploads" />}
            </Stack>
          ) : (
            <OwnedNote onDark />
          )}
        </Stack>
      </Container>
    </Box>
  );
}
