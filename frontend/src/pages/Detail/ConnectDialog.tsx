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
import { refusalOr } from '../../api/client';
import { useNotify } from '../../components/useNotify';
import { missingAuthFields, parseAuthFields } from '../../features/detail/authFields';
import { useActivateConnector } from '../../api/connectors';

export interface ConnectTarget {
  id: string;
  title: string;
  auth_fields?: unknown;
}

/**
 * Connect flow: asks for the connector's credentials if it has any, activates it, says
 * 'Connector activated!' and goes to /datastore; on failure shows the server's error or 'Activation failed.'
 */
export function ConnectDialog({
  connector,
  onClose,
}: {
  connector: ConnectTarget | null;
  onClose: () => void;
}) {
  const notify = useNotify();
  const navigate = useNavigate();
  const activate = useActivateConnector();
  const [values, setValues] = useState<Record<string, string>>({});
  const fields = parseAuthFields(connector?.auth_fields);
  const missing = missingAuthFields(fields, values);

  const close = () => {
    setValues({});
    onClose();
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!connector || missing.length) return;
    activate.mutate(
      { connector_id: connector.id, auth_data: values },
      {
        onSuccess: () => {
          notify('Connector activated!', 'success');
          close();
          navigate('/datastore');
        },
        onError: (error) => notify(refusalOr(error, 'Activation failed.'), 'error'),
      },
    );
  };

  return (
    <Dialog open={!!connector} onClose={close} fullWidth maxWidth="xs" aria-labelledby="connect-dialog-title">
      <form onSubmit={submit} noValidate>
        <DialogTitle id="connect-dialog-title">Connect {connector?.title}</DialogTitle>
        <DialogContent>
          <DialogContentText sx={{ mb: 2 }}>
            {fields.length
              ? 'Enter the credentials this API needs. They are stored encrypted and never shown again.'
              : 'This creates your own connection. You can adjust its settings afterwards.'}
          </DialogContentText>
          <Stack spacing={2}>
            {fields.map((field, index) => (
              <TextField
                key={field.key}
                label={field.label}
                required={field.required}
                type="password"
                autoComplete="off"
                autoFocus={index === 0}
                value={values[field.key] ?? ''}
                onChange={(event) => setValues({ ...values, [field.key]: event.target.value })}
              />
            ))}
          </Stack>
        </DialogContent>
        <DialogActions>
          <Button onClick={close}>Cancel</Button>
          <Button type="submit" variant="contained" disabled={activate.isPending || missing.length > 0}>
            Connect
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}
