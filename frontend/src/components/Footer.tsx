import Box from '@mui/material/Box';
import Container from '@mui/material/Container';
import Grid from '@mui/material/Grid';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { Link as RouterLink } from 'react-router-dom';
import { BrandLink } from './BrandLink';
import { copyrightLine } from './copyright';

interface FooterLink {
  label: string;
  href: string;
  /** Served by the API server, not the SPA: needs a full page load. */
  external?: boolean;
}

const COLUMNS: { heading: string; links: FooterLink[] }[] = [
  {
    heading: 'Marketplace',
    links: [
      { label: 'About', href: '/about' },
      { label: 'DataStore', href: '/datastore' },
      { label: 'Data Apps', href: '/dataapps' },
      { label: 'Use Cases', href: '/use-cases' },
    ],
  },
  {
    heading: 'Developers',
    links: [
      { label: 'API Documentation', href: '/api-documentation', external: true },
      { label: 'Documentation', href: '/documentation' },
      { label: 'Blog', href: '/blog' },
    ],
  },
  {
    heading: 'Company',
    links: [
      { label: 'Contact', href: '/contact' },
      { label: 'Terms', href: '/terms' },
      { label: 'Imprint', href: '/imprint' },
    ],
  },
];

export function Footer() {
  return (
    <Box component="footer" sx={{ mt: 'auto', bgcolor: '#1c2033', color: 'grey.300', pt: 6, pb: 3 }}>
      <Container maxWidth="lg">
        <Grid container spacing={4}>
          <Grid size={{ xs: 12, md: 3 }}>
            <Box sx={{ color: 'common.white' }}>
              <BrandLink />
            </Box>
            <Typography variant="body2" sx={{ mt: 1.5, color: 'grey.400' }}>
              Discover, get, upload, connect and stream data.
            </Typography>
          </Grid>
          {COLUMNS.map((column) => (
            <Grid key={column.heading} size={{ xs: 6, sm: 4, md: 3 }}>
              <Typography component="h2" variant="subtitle2" sx={{ color: 'common.white', mb: 1.5 }}>
                {column.heading}
              </Typography>
              <Stack component="ul" spacing={1} sx={{ listStyle: 'none', p: 0, m: 0 }}>
                {column.links.map((link) => (
                  <li key={link.href}>
                    {link.external ? (
                      <Link href={link.href} color="inherit">
                        {link.label}
                      </Link>
                    ) : (
                      <Link component={RouterLink} to={link.href} color="inherit">
                        {link.label}
                      </Link>
                    )}
                  </li>
                ))}
              </Stack>
            </Grid>
          ))}
        </Grid>
        <Typography
          variant="body2"
          sx={{ mt: 5, pt: 3, borderTop: 1, borderColor: 'rgba(255,255,255,0.12)' }}
        >
          {copyrightLine()}
        </Typography>
      </Container>
    </Box>
  );
}
