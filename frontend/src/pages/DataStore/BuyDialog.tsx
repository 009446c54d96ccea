import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import Alert from '@mui/material/Alert';
import DialogTitle from '@mui/material/DialogTitle';
import { formatPrice } from '../../components/price';
import { usePaymentMode } from '../../api/access';
import { paymentNote } from '../../features/datastore/checkout';

interface Props {
  item: { title: string; price: number | string } | null;
  onConfirm: () => void;
  onCancel: () => void;
}

/** A paid dataset is granted (or its checkout opened) only after the user confirms the price. */
export function BuyDialog({ item, onConfirm, onCancel }: Props) {
  const note = paymentNote(usePaymentMode().data);
  return (
    <Dialog open={!!item} onClose={onCancel} aria-labelledby="buy-dialog-title" maxWidth="xs" fullWidth>
      <DialogTitle id="buy-dialog-title">Buy {item?.title}</DialogTitle>
      <DialogContent>
        <DialogContentText>
          You get full access to this dataset for {item ? formatPrice(item.price) : ''}.
        </DialogContentText>
        {note && (
          <Alert severity="info" sx={{ mt: 2 }}>
            {note}
          </Alert>
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={onCancel}>Cancel</Button>
        <Button variant="contained" onClick={onConfirm} autoFocus>
          Buy for {item ? formatPrice(item.price) : ''}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
