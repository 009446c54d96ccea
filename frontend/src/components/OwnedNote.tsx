import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { Link as RouterLink } from 'react-router-dom';

/** Where the user's own uploads are managed. */
export const MANAGE_UPLOADS_PATH = '/manage?tab=uploaded';

/**
 * In place of Get/Buy/Remove on the user's own dataset: they own it, and manage it elsewhere. On
 * their own connector it sits beside Connect/Manage (using a connector is connecting it), with a
 * link named so that it is not taken for that Manage.
 */
export function OwnedNote({
  onDark = false,
  linkLabel = 'Manage',
}: {
  onDark?: boolean;
  linkLabel?: string;
}) {
  return (
    <Stack direction="row" spacing={1.5} sx={{ alignItems: 'center', flexWrap: 'wrap' }}>
      <Typography variant="body2" sx={{ fontWeight: 600, color: onDark ? 'common.white' : 'text.secondary' }}>
        You own this
      </Typography>
      <Link
        component={RouterLink}
        to={MANAGE_UPLOADS_PATH}
        variant="body2"
        sx={{ fontWeight: 600, color: onDark ? 'common.white' : undefined }}
      >
        {linkLabel}
      </Link>
    </Stack>
  );
}
