import Paper from '@mui/material/Paper';
import type { ReactNode } from 'react';
import Typography from '@mui/material/Typography';
import { formatPrice } from '../../components/price';
import { FactList } from './FactList';

interface Props {
  subscribers: number;
  category: string;
  source?: string;
  author?: string;
  description: string;
  price: number | string;
  /** Said instead of the price when it does not apply to this user (bought once already). */
  priceNote?: string | null;
  /** Who owns it, above the facts (a dataset of an organisation names it). */
  owner?: ReactNode;
}

/** The details block of the Detail screen: Subscribers, Category, Source, Author, Description and price. */
export function DetailFacts({
  subscribers,
  category,
  source,
  author,
  description,
  price,
  priceNote,
  owner,
}: Props) {
  const facts: Array<[string, string]> = [
    ['Subscribers', String(subscribers ?? 0)],
    ['Category', category || '—'],
    ['Source', source || '—'],
    ['Author', author || '—'],
    ['Price', priceNote ?? formatPrice(price)],
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
      {owner}
      <FactList facts={facts} />
      <Typography component="h3" variant="subtitle2" color="text.secondary">
        Description
      </Typography>
      <Typography sx={{ whiteSpace: 'pre-line' }}>{description || 'No description yet.'}</Typography>
    </Paper>
  );
}
