import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormGroup from '@mui/material/FormGroup';
import FormLabel from '@mui/material/FormLabel';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { FormEvent, useState } from 'react';
import { CreatedApiToken, useCreateApiToken } from '../../api/tokens';
import { failureText } from '../../api/users';
import { useNotify } from '../../components/useNotify';
import { CopyLink } from '../Manage/CopyLink';

type Scope = 'stream' | 'query';
const EXPIRY_CHOICES = [
  { label: 'Never', days: 0 },
  { label: '30 days', days: 30 },
  { label: '90 days', days: 90 },
  { label: '1 year', days: 365 },
];

/**
 * Name, scopes and expiry of a new token (the caller's, or the organisation's given its id); then
 * the token itself, shown this once.
 */
export function CreateTokenDialog(props: { open: boolean; onClose: () => void; organisationId?: string }) {
  const [name, setName] = useState('');
  const [scopes, setScopes] = useState<Scope[]>(['stream']);
  const [days, setDays] = useState(0);
  const [created, setCreated] = useState<CreatedApiToken | null>(null);
  const create = useCreateApiToken(props.organisationId);
  const notify = useNotify();
  const toggle = (scope: Scope) =>
    setScopes((current) =>
      current.includes(scope) ? current.filter((item) => item !== scope) : [...current, scope],
    );

  const close = () => {
    setName('');
    setScopes(['stream']);
    setDays(0);
    setCreated(null);
    create.reset();
    props.onClose();
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!name.trim() || scopes.length === 0 || create.isPending) return;
    create.mutate(
      { name: name.trim(), scopes, ...(days ? { expires_in_days: days } : {}) },
      {
        onSuccess: setCreated,
        onError: (error) =>
          notify(
            failureText(error, {
              fallback: 'Failed to create the token',
              network: 'Error creating the token',
            }),
            'error',
          ),
      },
    );
  };

  if (created)
    return (
      <Dialog open={props.open} onClose={close} fullWidth maxWidth="sm">
        <DialogTitle>Token “{created.name}” created</DialogTitle>
        <DialogContent>
          <Alert severity="warning" sx={{ mb: 2 }}>
            Copy it now: it is not stored and cannot be shown again.
          </Alert>
          <CopyLink label="token" url={created.token} />
        </DialogContent>
        <DialogActions>
          <Button variant="contained" onClick={close}>
            Done
          </Button>
        </DialogActions>
      </Dialog>
    );

  return (
    <Dialog open={props.open} onClose={close} fullWidth maxWidth="xs">
      <form onSubmit={submit} noValidate>
        <DialogTitle>New API token</DialogTitle>
        <DialogContent>
          <Stack spacing={2} sx={{ pt: 1 }}>
            <TextField
              label="Name"
              required
              autoFocus
              helperText="What it is for, e.g. Power BI"
              slotProps={{ htmlInput: { maxLength: 100 } }}
              value={name}
              onChange={(event) => setName(event.target.value)}
            />
            <FormGroup>
              <FormLabel component="legend">May use</FormLabel>
              <FormControlLabel
                control={<Checkbox checked={scopes.includes('stream')} onChange={() => toggle('stream')} />}
                label="Streams & OData"
              />
              <FormControlLabel
                control={<Checkbox checked={scopes.includes('query')} onChange={() => toggle('query')} />}
                label="SQL queries"
              />
            </FormGroup>
            <TextField
              select
              label="Expires"
              value={days}
              onChange={(event) => setDays(Number(event.target.value))}
            >
              {EXPIRY_CHOICES.map((choice) => (
                <MenuItem key={choice.days} value={choice.days}>
                  {choice.label}
                </MenuItem>
              ))}
            </TextField>
          </Stack>
        </DialogContent>
        <DialogActions>
          <Button onClick={close}>Cancel</Button>
          <Button
            type="submit"
            variant="contained"
            disabled={!name.trim() || scopes.length === 0 || create.isPending}
          >
            {create.isPending ? 'Creating…' : 'Create token'}
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}
