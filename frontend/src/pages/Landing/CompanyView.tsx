import Policy from '@mui/icons-material/Policy';
import ShoppingCart from '@mui/icons-material/ShoppingCart';
import TrackChanges from '@mui/icons-material/TrackChanges';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { FeatureCards } from './FeatureCards';
import { PaymentOption } from './PaymentOption';
import { MAX_FEE_SAVING_PERCENT } from './pricing';
import { PricingCards } from './PricingCards';

const STEPS = [
  {
    icon: <ShoppingCart fontSize="inherit" />,
    title: 'Test purchases',
    text: 'Our test buyers order your products from suspicious shops and marketplaces, like any customer would.',
  },
  {
    icon: <TrackChanges fontSize="inherit" />,
    title: 'Trace the seller',
    text: 'Invoices, packaging and shipping data reveal who really sells your goods on the grey market.',
  },
  {
    icon: <Policy fontSize="inherit" />,
    title: 'Evidence you can use',
    text: 'You receive a documented report for your sales team or your lawyers.',
  },
];

/** "Companies" view: grey-market tracing by test purchases, pricing and payment choice. */
export function CompanyView() {
  return (
    <Box>
      <Typography variant="h3" component="h2" gutterBottom>
        Trace grey-market sellers with test purchases
      </Typography>
      <Typography color="text.secondary" sx={{ mb: 4, maxWidth: 720 }}>
        Find out who sells your products outside your distribution network. Real buyers, real orders, real
        evidence.
      </Typography>
      <FeatureCards features={STEPS} />
      <Typography variant="h4" component="h2" sx={{ mt: 6, mb: 1 }}>
        Pricing
      </Typography>
      <Alert severity="success" sx={{ mb: 3 }}>
        Save up to {MAX_FEE_SAVING_PERCENT}% fees compared with traditional test-purchase agencies.
      </Alert>
      <PricingCards />
      <PaymentOption />
    </Box>
  );
}
