import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import FormControlLabel from '@mui/material/FormControlLabel';
import LinearProgress from '@mui/material/LinearProgress';
import Radio from '@mui/material/Radio';
import RadioGroup from '@mui/material/RadioGroup';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { FormEvent, useState } from 'react';
import { useRefreshAsset } from '../../../api/assets';
import { useNotify } from '../../../components/useNotify';
import { ownerErrorText } from './ownerErrors';

/**
 * The owner loads a new CSV into a dataset: it replaces the rows or is appended. The file needs
 * the dataset's header; until it has loaded, buyers keep reading the old rows.
 */
export function RefreshDatasetDialog(props: {
  id: string;
  title: string;
  open: boolean;
  onClose: () => void;
}) {
  // Mounted only while open, so every opening starts with a fresh form.
  return props.open ? <RefreshForm {...props} /> : null;
}

function RefreshForm({
  id,
  title,
  open,
  onClose,
}: {
  id: string;
  title: string;
  open: boolean;
  onClose: () => void;
}) {
  const refresh = useRefreshAsset(id);
  const notify = useNotify();
  const [mode, setMode] = useState<'replace' | 'append'>('replace');
  const [file, setFile] = useState<File | null>(null);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!file) return;
    refresh.mutate(
      { mode, file },
      {
        onSuccess: (answer) => {
          notify(
            answer.mode === 'replace'
              ? `Data replaced: ${answer.row_count.toLocaleString()} rows.`
              : `${answer.rows_loaded.toLocaleString()} rows appended: ${answer.row_count.toLocaleString()} in total.`,
            'success',
          );
          onClose();
        },
      },
    );
  };

  return (
    <Dialog
      open={open}
      onClose={refresh.isPending ? undefined : onClose}
      fullWidth
      maxWidth="sm"
      aria-labelledby="refresh-dataset-title"
    >
      <form onSubmit={submit}>
        <DialogTitle id="refresh-dataset-title">Refresh “{title}”</DialogTitle>
        <DialogContent dividers>
          <Stack spacing={2}>
            <DialogContentText>
              Upload a CSV file, Excel workbook (first sheet) or Parquet file with the same columns as this
              dataset. Buyers keep seeing the current rows until the new file has loaded completely; a file
              that cannot be loaded changes nothing.
            </DialogContentText>
            {refresh.error && <Alert severity="error">{ownerErrorText(refresh.error)}</Alert>}
            <RadioGroup
              value={mode}
              onChange={(event) => setMode(event.target.value as 'replace' | 'append')}
              aria-label="How to load the file"
            >
              <FormControlLabel value="replace" control={<Radio />} label="Replace all rows" />
              <FormControlLabel value="append" control={<Radio />} label="Append to the rows" />
            </RadioGroup>
            <Button variant="outlined" component="label">
              {file ? 'Choose another file' : 'Choose CSV file'}
              <input
                hidden
                type="file"
                accept=".csv,text/csv,.xlsx,.parquet"
                aria-label="CSV file"
                onChange={(event) => setFile(event.target.files?.[0] ?? null)}
              />
            </Button>
            {file && <Typography sx={{ overflowWrap: 'anywhere' }}>{file.name}</Typography>}
            {refresh.isPending && (
              <LinearProgress variant="determinate" value={refresh.percent} aria-label="Upload progress" />
            )}
          </Stack>
        </DialogContent>
        <DialogActions>
          <Button onClick={onClose} disabled={refresh.isPending}>
            Cancel
          </Button>
          <Button type="submit" variant="contained" disabled={!file || refresh.isPending}>
            {mode === 'replace' ? 'Replace data' : 'Append data'}
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}
