import Box from '@mui/material/Box';
import Link from '@mui/material/Link';
import { Link as RouterLink } from 'react-router-dom';
import { BRAND_NAME } from './copyright';

export function BrandLink() {
  return (
    <Link
      component={RouterLink}
      to="/"
      underline="none"
      color="inherit"
      aria-label={`${BRAND_NAME} home`}
      sx={{ display: 'inline-flex', alignItems: 'center', gap: 1, fontWeight: 800, fontSize: '1.2rem' }}
    >
      <Box component="img" src="/favicon.svg" alt={`${BRAND_NAME} logo`} width={32} height={32} />
      <span>{BRAND_NAME}</span>
    </Link>
  );
}
