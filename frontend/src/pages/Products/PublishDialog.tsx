import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { FormEvent, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { useInstanceTableRows } from '../../api/connectors';
import { usePublishTable } from '../../api/liveProducts';
import { useNotify } from '../../components/useNotify';
import {
  checkPublishForm,
  emptyPublishForm,
  publishedColumns,
  type PublishField,
  type PublishForm,
} from '../../features/products/publishForm';
import { MetadataFields } from '../Upload/MetadataFields';
import { ownerErrorText } from '../Detail/owner/ownerErrors';
import { DictionaryEditor } from './DictionaryEditor';

export interface PublishTarget {
  instanceId: string;
  /** The table's readable name: what the publish call names. */
  table: string;
  /** The table inside the database: where its columns are read from. */
  outputTableName: string;
  /** The listing's first title. */
  suggestedTitle: string;
}

export const PUBLISHED = 'Published. Subscribers get every refresh of this table.';

/** The catalogue details and data dictionary of a connection's table, published as a live dataset. */
export function PublishDialog({ target, onClose }: { target: PublishTarget | null; onClose: () => void }) {
  // Mounted only while open, so every opening starts from an empty form.
  return target ? <PublishForm target={target} onClose={onClose} /> : null;
}

function PublishForm({ target, onClose }: { target: PublishTarget; onClose: () => void }) {
  const [form, setForm] = useState<PublishForm>(() => emptyPublishForm(target.suggestedTitle));
  const [errors, setErrors] = useState<Partial<Record<PublishField, string>>>({});
  const table = useInstanceTableRows(target.outputTableName);
  const publish = usePublishTable();
  const notify = useNotify();
  const navigate = useNavigate();
  const columns = publishedColumns(table.data?.columns ?? []);
  const set = (changes: Partial<PublishForm>) => {
    setForm((current) => ({ ...current, ...changes }));
    // A field being corrected stops showing its old message; the next Publish checks it again.
    setErrors((current) =>
      Object.fromEntries(Object.entries(current).filter(([field]) => !(field in changes))),
    );
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const check = checkPublishForm(form, target.table);
    setErrors(check.errors ?? {});
    if (!check.input) return;
    publish.mutate(
      { instanceId: target.instanceId, input: check.input },
      {
        onSuccess: (answer) => {
          notify(PUBLISHED, 'success');
          onClose();
          navigate(answer.redirectUrl);
        },
      },
    );
  };

  return (
    <Dialog
      open
      onClose={publish.isPending ? undefined : onClose}
      fullWidth
      maxWidth="sm"
      aria-labelledby="publish-dialog-title"
    >
      <form onSubmit={submit} noValidate>
        <DialogTitle id="publish-dialog-title">Publish “{target.table}”</DialogTitle>
        <DialogContent dividers>
          <Stack spacing={2}>
            <DialogContentText>
              The table becomes a dataset listing. Each refresh of the connection updates it for its
              subscribers; they never see the connection's settings or credentials.
            </DialogContentText>
            {publish.error && <Alert severity="error">{ownerErrorText(publish.error)}</Alert>}
            <MetadataFields values={form} onChange={set} errors={errors} />
            <TextField
              label="Image URL"
              value={form.image}
              onChange={(event) => set({ image: event.target.value })}
              error={!!errors.image}
              helperText={errors.image ?? 'An http(s) address or a path on this site; optional'}
            />
            <DictionaryEditor
              columns={columns}
              values={form.dictionary}
              onChange={(dictionary) => set({ dictionary })}
              loading={table.isPending}
            />
          </Stack>
        </DialogContent>
        <DialogActions>
          <Button onClick={onClose} disabled={publish.isPending}>
            Cancel
          </Button>
          <Button type="submit" variant="contained" disabled={publish.isPending}>
            {publish.isPending ? 'Publishing…' : 'Publish'}
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}
