import Box from '@mui/material/Box';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { formatPrice } from '../../components/price';

interface Props {
  subscribers: number;
  category: string;
  source?: string;
  author?: string;
  description: string;
  price: number | string;
}

/** The details block of the Detail screen: Subscribers, Category, Source, Author, Description and price. */
export function DetailFacts({ subscribers, category, source, author, description, price }: Props) {
  const facts: Array<[string, string]> = [
    ['Subscribers', String(subscribers ?? 0)],
    ['Category', category || '—'],
    ['Source', source || '—'],
    ['Author', author || '—'],
    ['Price', formatPrice(price)],
  ];
  return (
    <Paper
      variant="outlined"
      sx={{ p: { xs: 2, md: 3 } }}
      component="section"
      aria-labelledby="details-heading"
    >
      <Typography id="details-heading" variant="h5" component="h2" gutterBottom>
        Details
      </Typography>
      <Box
        component="dl"
        sx={{
          display: 'grid',
          gridTemplateColumns: { xs: '1fr 1fr', md: 'repeat(5, 1fr)' },
          gap: 2,
          m: 0,
          mb: 3,
        }}
      >
        {facts.map(([term, value]) => (
          <Box key={term}>
            <Typography
              component="dt"
              variant="caption"
              color="text.secondary"
              sx={{ textTransform: 'uppercase', letterSpacing: 0.5 }}
            >
              {term}
            </Typography>
            <Typography component="dd" sx={{ m: 0, fontWeight: 600, overflowWrap: 'anywhere' }}>
              {value}
            </Typography>
          </Box>
        ))}
      </Box>
      <Typography component="h3" variant="subtitle2" color="text.secondary">
        Description
      </Typography>
      <Typography sx={{ whiteSpace: 'pre-line' }}>{description || 'No description yet.'}</Typography>
    </Paper>
  );
}
