import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import Alert from '@mui/material/Alert';
import DialogTitle from '@mui/material/DialogTitle';
import { usePaymentMode } from '../../api/access';
import { paymentNote } from '../../features/datastore/checkout';
import { buyWords } from '../../features/subscriptions/subscriptionText';

interface Props {
  item: {
    title: string;
    price: number | string;
    billingInterval?: 'month' | 'year' | null;
    trialDays?: number;
  } | null;
  onConfirm: () => void;
  onCancel: () => void;
}

/**
 * A paid dataset is granted (or its checkout opened) only after the user confirms the price; a
 * recurring price is confirmed as a subscription.
 */
export function BuyDialog({ item, onConfirm, onCancel }: Props) {
  const note = paymentNote(usePaymentMode().data);
  const words = item ? buyWords(item) : null;
  return (
    <Dialog open={!!item} onClose={onCancel} aria-labelledby="buy-dialog-title" maxWidth="xs" fullWidth>
      <DialogTitle id="buy-dialog-title">{words?.title}</DialogTitle>
      <DialogContent>
        <DialogContentText>{words?.text}</DialogContentText>
        {note && (
          <Alert severity="info" sx={{ mt: 2 }}>
            {note}
          </Alert>
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={onCancel}>Cancel</Button>
        <Button variant="contained" onClick={onConfirm} autoFocus>
          {words?.action}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
