import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import { useState } from 'react';
import { useMoveAsset } from '../../../api/assets';
import type { Organisation } from '../../../api/organisations';
import { failureText } from '../../../api/users';
import { useNotify } from '../../../components/useNotify';

/**
 * Moves the owner's personal dataset into one of the organisations they edit for: from then on
 * its editors and above manage it and every member reads it. There is no moving it back.
 */
export function MoveDatasetDialog(props: {
  open: boolean;
  assetId: string;
  organisations: Organisation[];
  onClose: () => void;
}) {
  const [chosen, setChosen] = useState('');
  const move = useMoveAsset(props.assetId);
  const notify = useNotify();
  const target = chosen || props.organisations[0]?.id || '';
  const name = props.organisations.find((organisation) => organisation.id === target)?.name;

  const confirm = () =>
    move.mutate(target, {
      onSuccess: () => {
        notify(`Moved to ${name}.`, 'success');
        props.onClose();
      },
      onError: (error) =>
        notify(
          failureText(error, { fallback: 'The dataset could not be moved', network: 'Network error' }),
          'error',
        ),
    });

  return (
    <Dialog
      open={props.open}
      onClose={props.onClose}
      aria-labelledby="move-dialog-title"
      maxWidth="xs"
      fullWidth
    >
      <DialogTitle id="move-dialog-title">Move to organisation</DialogTitle>
      <DialogContent>
        <DialogContentText sx={{ mb: 2 }}>
          The organisation owns it from then on: its editors, admins and owners manage it and every member
          reads it. It cannot be moved back.
        </DialogContentText>
        <TextField
          select
          fullWidth
          label="Organisation"
          value={target}
          onChange={(event) => setChosen(event.target.value)}
        >
          {props.organisations.map((organisation) => (
            <MenuItem key={organisation.id} value={organisation.id}>
              {organisation.name}
            </MenuItem>
          ))}
        </TextField>
      </DialogContent>
      <DialogActions>
        <Button onClick={props.onClose}>Cancel</Button>
        <Button variant="contained" onClick={confirm} disabled={!target || move.isPending}>
          Move
        </Button>
      </DialogActions>
    </Dialog>
  );
}
