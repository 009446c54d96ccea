import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import Alert from '@mui/material/Alert';
import DialogTitle from '@mui/material/DialogTitle';
import { useState } from 'react';
import { usePaymentMode } from '../../api/access';
import type { Organisation } from '../../api/organisations';
import { FOR_ME, HolderChoice } from '../../components/HolderChoice';
import { paymentNote } from '../../features/datastore/checkout';
import { buyWords } from '../../features/subscriptions/subscriptionText';

interface Props {
  item: {
    title: string;
    price: number | string;
    billingInterval?: 'month' | 'year' | null;
    trialDays?: number;
  } | null;
  /** Organisations the user may buy for (editor and above); a subscription is for the user only. */
  organisations?: Organisation[];
  onConfirm: (organisationId?: string) => void;
  onCancel: () => void;
}

/**
 * A paid dataset is granted (or its checkout opened) only after the user confirms the price; a
 * recurring price is confirmed as a subscription.
 */
export function BuyDialog({ item, organisations = [], onConfirm, onCancel }: Props) {
  const note = paymentNote(usePaymentMode().data);
  const words = item ? buyWords(item) : null;
  const [holder, setHolder] = useState(FOR_ME);
  const choice = organisations.length > 0 && !item?.billingInterval;
  // Each opening starts at "For me".
  const cancel = () => {
    setHolder(FOR_ME);
    onCancel();
  };
  const confirm = () => {
    setHolder(FOR_ME);
    onConfirm((choice && holder) || undefined);
  };
  return (
    <Dialog open={!!item} onClose={cancel} aria-labelledby="buy-dialog-title" maxWidth="xs" fullWidth>
      <DialogTitle id="buy-dialog-title">{words?.title}</DialogTitle>
      <DialogContent>
        <DialogContentText>{words?.text}</DialogContentText>
        {choice && <HolderChoice organisations={organisations} value={holder} onChange={setHolder} />}
        {note && (
          <Alert severity="info" sx={{ mt: 2 }}>
            {note}
          </Alert>
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={cancel}>Cancel</Button>
        <Button variant="contained" onClick={confirm} autoFocus>
          {words?.action}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
