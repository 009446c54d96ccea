import CreditCard from '@mui/icons-material/CreditCard';
import ReceiptLong from '@mui/icons-material/ReceiptLong';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import ToggleButton from '@mui/material/ToggleButton';
import ToggleButtonGroup from '@mui/material/ToggleButtonGroup';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { Link as RouterLink } from 'react-router-dom';

type PaymentMethod = 'card' | 'invoice';

/** Companies choose to pay by card or by invoice; the actual checkout starts after registration. */
export function PaymentOption() {
  const [method, setMethod] = useState<PaymentMethod>('card');
  return (
    <Paper variant="outlined" sx={{ p: { xs: 2, sm: 3 }, mt: 4 }}>
      <Typography variant="h6" component="h3" id="payment-method-label" gutterBottom>
        How would you like to pay?
      </Typography>
      <ToggleButtonGroup
        exclusive
        value={method}
        onChange={(_event, next: PaymentMethod | null) => next && setMethod(next)}
        aria-labelledby="payment-method-label"
        color="primary"
        sx={{ flexWrap: 'wrap' }}
      >
        <ToggleButton value="card" sx={{ gap: 1 }}>
          <CreditCard aria-hidden /> Card payment
        </ToggleButton>
        <ToggleButton value="invoice" sx={{ gap: 1 }}>
          <ReceiptLong aria-hidden /> Invoice
        </ToggleButton>
      </ToggleButtonGroup>
      <Typography color="text.secondary" sx={{ mt: 2 }}>
        {method === 'card'
          ? 'Pay each test purchase or pack securely by credit or debit card.'
          : 'Receive one invoice per pack or per month; the corporate plan is always billed by invoice.'}
      </Typography>
      <Box sx={{ mt: 3 }}>
        <Button component={RouterLink} to="/register" variant="contained" size="large">
          Get started
        </Button>
      </Box>
    </Paper>
  );
}
