import CardGiftcard from '@mui/icons-material/CardGiftcard';
import RateReview from '@mui/icons-material/RateReview';
import Verified from '@mui/icons-material/Verified';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import { Link as RouterLink } from 'react-router-dom';
import { FeatureCards } from './FeatureCards';

const FEATURES = [
  {
    icon: <CardGiftcard fontSize="inherit" />,
    title: 'Free products',
    text: 'Receive products from brands at no cost. You keep what you test.',
  },
  {
    icon: <RateReview fontSize="inherit" />,
    title: 'Honest feedback',
    text: 'In exchange, tell the brand what you really think: the good, the bad and everything in between.',
  },
  {
    icon: <Verified fontSize="inherit" />,
    title: 'Trust score',
    text: 'Every completed test raises your trust score, which unlocks more and better products.',
  },
];

/** "Test buyers" view of the landing page (the default). */
export function BuyerView() {
  return (
    <Box>
      <Typography variant="h3" component="h2" gutterBottom>
        Free products for your honest feedback
      </Typography>
      <Typography color="text.secondary" sx={{ mb: 4, maxWidth: 720 }}>
        Become a test buyer: order products for free, use them, and share honest feedback. Reliable testers
        build a trust score and get first pick of new products.
      </Typography>
      <FeatureCards features={FEATURES} />
      <Box sx={{ mt: 4 }}>
        <Button component={RouterLink} to="/register" variant="contained" size="large">
          Become a test buyer
        </Button>
      </Box>
    </Box>
  );
}
