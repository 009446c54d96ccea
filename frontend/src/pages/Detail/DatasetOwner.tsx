import Link from '@mui/material/Link';
import Typography from '@mui/material/Typography';
import { Link as RouterLink } from 'react-router-dom';
import type { AssetDetail } from '../../api/assets';
import { useOrganisations } from '../../api/organisations';
import { useSession } from '../../auth/useSession';

/**
 * The organisation a dataset belongs to: a link to its page for its members, its name as the
 * publisher for everyone else (the page is for members only). Nothing for a personal dataset.
 */
export function DatasetOwner({ organisation }: { organisation: AssetDetail['organisation'] }) {
  const { status } = useSession();
  const mine = useOrganisations(status === 'in' && organisation !== null);
  if (!organisation) return null;
  const member = mine.data?.some((candidate) => candidate.id === organisation.id) ?? false;
  return (
    <Typography sx={{ mb: 2, overflowWrap: 'anywhere' }} data-testid="dataset-owner">
      {member ? 'Owned by ' : 'Published by '}
      {member ? (
        <Link component={RouterLink} to={`/organisations/${organisation.id}`} sx={{ fontWeight: 600 }}>
          {organisation.name}
        </Link>
      ) : (
        <strong>{organisation.name}</strong>
      )}
    </Typography>
  );
}
