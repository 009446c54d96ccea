import Check from '@mui/icons-material/Check';
import Box from '@mui/material/Box';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Chip from '@mui/material/Chip';
import Grid from '@mui/material/Grid';
import Typography from '@mui/material/Typography';
import { formatEuro, PRICING_PLANS, savingPercent } from './pricing';

export function PricingCards() {
  return (
    <Grid container spacing={3} component="ul" sx={{ listStyle: 'none', p: 0, m: 0 }}>
      {PRICING_PLANS.map((plan) => {
        const saving = plan.feeEur === undefined ? 0 : savingPercent(plan.feeEur);
        return (
          <Grid key={plan.id} size={{ xs: 12, sm: 6, md: 3 }} component="li">
            <Card
              aria-label={plan.name}
              sx={{
                height: '100%',
                ...(plan.highlighted && { borderColor: 'primary.main', borderWidth: 2 }),
              }}
            >
              <CardContent>
                <Box
                  sx={{
                    display: 'flex',
                    justifyContent: 'space-between',
                    alignItems: 'center',
                    minHeight: 32,
                  }}
                >
                  <Typography variant="h6" component="h3">
                    {plan.name}
                  </Typography>
                  {saving > 0 && <Chip label={`Save ${saving}%`} color="secondary" size="small" />}
                </Box>
                <Typography variant="h4" component="p" sx={{ mt: 2 }}>
                  {plan.feeEur === undefined ? 'By invoice' : formatEuro(plan.feeEur)}
                </Typography>
                <Typography color="text.secondary" sx={{ mt: 0.5 }}>
                  {plan.note}
                </Typography>
                {plan.purchases && (
                  <Typography sx={{ mt: 2, display: 'flex', gap: 1, alignItems: 'center' }}>
                    <Check color="secondary" fontSize="small" aria-hidden />
                    {plan.purchases} test purchases
                  </Typography>
                )}
              </CardContent>
            </Card>
          </Grid>
        );
      })}
    </Grid>
  );
}
