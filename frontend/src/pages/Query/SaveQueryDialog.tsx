import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import TextField from '@mui/material/TextField';
import { FormEvent, useState } from 'react';
import { refusalOr } from '../../api/client';
import { useSaveQuery } from '../../api/query';
import { useNotify } from '../../components/useNotify';

const NAME_MAX_LENGTH = 100;

/** Asks for a name and saves the editor's SQL under it. */
export function SaveQueryDialog({ sql, open, onClose }: { sql: string; open: boolean; onClose: () => void }) {
  const [name, setName] = useState('');
  const save = useSaveQuery();
  const notify = useNotify();
  const close = () => {
    setName('');
    save.reset();
    onClose();
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!name.trim() || save.isPending) return;
    save.mutate(
      { name: name.trim(), sql },
      {
        onSuccess: (saved) => {
          notify(`Saved as “${saved.name}”`, 'success');
          close();
        },
      },
    );
  };
  return (
    <Dialog open={open} onClose={close} fullWidth maxWidth="xs">
      <form onSubmit={submit} noValidate>
        <DialogTitle>Save query</DialogTitle>
        <DialogContent>
          <TextField
            autoFocus
            fullWidth
            margin="dense"
            label="Name"
            value={name}
            onChange={(event) => setName(event.target.value)}
            slotProps={{ htmlInput: { maxLength: NAME_MAX_LENGTH } }}
            required
          />
          {save.error && (
            <Alert severity="error" sx={{ mt: 1 }}>
              {refusalOr(save.error, 'The query could not be saved')}
            </Alert>
          )}
        </DialogContent>
        <DialogActions>
          <Button onClick={close}>Cancel</Button>
          <Button type="submit" variant="contained" disabled={!name.trim() || save.isPending}>
            Save
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}
