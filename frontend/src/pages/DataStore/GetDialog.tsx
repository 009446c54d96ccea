import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import { useState } from 'react';
import type { Organisation } from '../../api/organisations';
import { FOR_ME, HolderChoice } from '../../components/HolderChoice';

/**
 * A free dataset asked for by an editor (and above) of an organisation: for themselves or for
 * one of those organisations. Everyone else gets it at once, without this dialog.
 */
export function GetDialog(props: {
  item: { title: string } | null;
  organisations: Organisation[];
  onConfirm: (organisationId?: string) => void;
  onCancel: () => void;
}) {
  const [holder, setHolder] = useState(FOR_ME);
  // Each opening starts at "For me".
  const cancel = () => {
    setHolder(FOR_ME);
    props.onCancel();
  };
  const confirm = () => {
    setHolder(FOR_ME);
    props.onConfirm(holder || undefined);
  };
  return (
    <Dialog open={!!props.item} onClose={cancel} aria-labelledby="get-dialog-title" maxWidth="xs" fullWidth>
      <DialogTitle id="get-dialog-title">Get “{props.item?.title}”</DialogTitle>
      <DialogContent>
        <DialogContentText>It is free. Whoever gets it reads every row.</DialogContentText>
        <HolderChoice organisations={props.organisations} value={holder} onChange={setHolder} />
      </DialogContent>
      <DialogActions>
        <Button onClick={cancel}>Cancel</Button>
        <Button variant="contained" onClick={confirm} autoFocus>
          Get
        </Button>
      </DialogActions>
    </Dialog>
  );
}
