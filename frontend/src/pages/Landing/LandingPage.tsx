import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Container from '@mui/material/Container';
import ToggleButton from '@mui/material/ToggleButton';
import ToggleButtonGroup from '@mui/material/ToggleButtonGroup';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { Link as RouterLink } from 'react-router-dom';
import { BuyerView } from './BuyerView';
import { CompanyView } from './CompanyView';

type Audience = 'buyers' | 'companies';

export function LandingPage() {
  const [audience, setAudience] = useState<Audience>('buyers');
  return (
    <>
      <Box
        sx={{
          background: 'linear-gradient(135deg, #2c387e 0%, #3f51b5 55%, #00897b 100%)',
          color: 'common.white',
          py: { xs: 6, md: 10 },
        }}
      >
        <Container maxWidth="lg">
          <Typography variant="h1" sx={{ maxWidth: 760 }}>
            Honest feedback. Real purchases. Clear evidence.
          </Typography>
          <Typography sx={{ mt: 2, mb: 4, fontSize: '1.15rem', maxWidth: 640, opacity: 0.9 }}>
            We connect test buyers who want free products with companies that need test purchases.
          </Typography>
          <ToggleButtonGroup
            exclusive
            value={audience}
            onChange={(_event, next: Audience | null) => next && setAudience(next)}
            aria-label="Show the page for"
            sx={{
              bgcolor: 'rgba(255,255,255,0.12)',
              '& .MuiToggleButton-root': {
                color: 'common.white',
                px: 3,
                borderColor: 'rgba(255,255,255,0.4)',
              },
              '& .MuiToggleButton-root.Mui-selected': { bgcolor: 'common.white', color: 'primary.dark' },
              '& .MuiToggleButton-root.Mui-selected:hover': { bgcolor: 'grey.100' },
            }}
          >
            <ToggleButton value="buyers">Test buyers</ToggleButton>
            <ToggleButton value="companies">Companies</ToggleButton>
          </ToggleButtonGroup>
          <Box sx={{ mt: 3 }}>
            <Button component={RouterLink} to="/register" variant="contained" color="secondary" size="large">
              Sign up free
            </Button>
          </Box>
        </Container>
      </Box>
      <Container maxWidth="lg" sx={{ py: { xs: 5, md: 8 } }}>
        {audience === 'buyers' ? <BuyerView /> : <CompanyView />}
      </Container>
    </>
  );
}
