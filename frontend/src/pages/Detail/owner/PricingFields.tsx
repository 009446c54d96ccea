import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { BillingChoice, trialDaysProblem } from '../../../features/subscriptions/subscriptionText';

export interface Pricing {
  price: string;
  billing: BillingChoice;
  trialDays: string;
}

const CHOICES: Array<{ value: BillingChoice; label: string }> = [
  { value: 'one_off', label: 'One-off' },
  { value: 'month', label: 'Monthly' },
  { value: 'year', label: 'Yearly' },
];

/** Price, one-off or recurring (monthly or yearly), and a recurring price's free trial. */
export function PricingFields({
  value,
  onChange,
}: {
  value: Pricing;
  onChange: (changes: Partial<Pricing>) => void;
}) {
  const recurring = value.billing !== 'one_off';
  const trialProblem = trialDaysProblem(value.trialDays);
  return (
    <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
      <TextField
        label="Price (USD)"
        fullWidth
        value={value.price}
        onChange={(event) => onChange({ price: event.target.value })}
        helperText={
          recurring ? 'Charged each period; a new price is for new subscribers' : '0 or empty means free'
        }
        slotProps={{ htmlInput: { inputMode: 'decimal' } }}
      />
      <TextField
        select
        label="Billing"
        fullWidth
        value={value.billing}
        onChange={(event) => onChange({ billing: event.target.value as BillingChoice })}
      >
        {CHOICES.map((choice) => (
          <MenuItem key={choice.value} value={choice.value}>
            {choice.label}
          </MenuItem>
        ))}
      </TextField>
      {recurring && (
        <TextField
          label="Free trial (days)"
          fullWidth
          value={value.trialDays}
          onChange={(event) => onChange({ trialDays: event.target.value })}
          error={!!trialProblem}
          helperText={trialProblem ?? '0 to 90; empty for none'}
          slotProps={{ htmlInput: { inputMode: 'numeric' } }}
        />
      )}
    </Stack>
  );
}
