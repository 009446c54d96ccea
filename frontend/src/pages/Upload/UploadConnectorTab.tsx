import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Link from '@mui/material/Link';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemText from '@mui/material/ListItemText';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { FormEvent, useState } from 'react';
import { Link as RouterLink, useNavigate } from 'react-router-dom';
import { ApiError } from '../../api/client';
import { useNotify } from '../../components/useNotify';
import {
  afterUploadPath,
  checkConnectorUpload,
  ConnectorUploadForm,
  DESCRIPTION_FROM_SPEC,
  CONNECTOR_UPLOADED,
  EXAMPLE_SPEC,
  parseConnectorSpec,
  SpecProblem,
  TITLE_FROM_SPEC,
  specProblems,
} from '../../features/upload/connectorUpload';
import { useTestRead, useUploadConnector } from '../../api/connectors';
import { TestReadResultView } from '../../components/TestReadResultView';
import { MetadataFields } from './MetadataFields';

const EMPTY: ConnectorUploadForm = {
  title: '',
  description: '',
  isPublic: true,
  price: '0',
  specText: EXAMPLE_SPEC,
};

/** Upload Connector: a spec in the connector DSL plus its catalogue details. */
export function UploadConnectorTab() {
  const notify = useNotify();
  const navigate = useNavigate();
  const upload = useUploadConnector();
  const testRead = useTestRead();
  const [testValues, setTestValues] = useState('');
  const [form, setForm] = useState(EMPTY);
  const [error, setError] = useState<string | null>(null);
  const [problems, setProblems] = useState<SpecProblem[]>([]);
  const set = (change: Partial<ConnectorUploadForm>) => setForm({ ...form, ...change });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setProblems([]);
    const checked = checkConnectorUpload(form);
    if (checked.error !== undefined) {
      setError(checked.error);
      return;
    }
    setError(null);
    upload.mutate(checked.payload, {
      onSuccess: (answer) => {
        notify(CONNECTOR_UPLOADED, 'success');
        navigate(afterUploadPath(answer, window.location.origin));
      },
      onError: (failure) => {
        const found = failure instanceof ApiError ? specProblems(failure.body) : [];
        setProblems(found);
        const text = failure instanceof ApiError && failure.message ? failure.message : 'Upload failed';
        setError(found.length ? 'The connector spec has problems:' : text);
        notify(found.length ? 'Upload failed' : text, 'error');
      },
    });
  };

  /** Runs the spec's first pages without uploading or writing anything; mistakes are listed by path. */
  const tryRead = () => {
    setProblems([]);
    const parsed = parseConnectorSpec(form.specText);
    const values = testValues.trim() === '' ? { spec: {} } : parseConnectorSpec(testValues);
    if (parsed.error !== undefined || values.error !== undefined) {
      setError(parsed.error ?? 'Test values must be a JSON object like {"settings": {}, "auth_data": {}}.');
      return;
    }
    setError(null);
    const { settings, auth_data } = values.spec as {
      settings?: Record<string, unknown>;
      auth_data?: Record<string, string>;
    };
    testRead.mutate(
      { spec: parsed.spec, settings, auth_data },
      {
        onError: (failure) => {
          const found = failure instanceof ApiError ? specProblems(failure.body) : [];
          setProblems(found);
          setError(
            found.length
              ? 'The connector spec has problems:'
              : failure instanceof ApiError && failure.message
                ? failure.message
                : 'Test read failed',
          );
        },
      },
    );
  };

  return (
    <Stack component="form" spacing={2.5} onSubmit={submit} noValidate aria-label="Upload connector">
      <Typography color="text.secondary">
        Describe an HTTP API in the connector DSL. See the{' '}
        <Link component={RouterLink} to="/documentation">
          connector documentation
        </Link>{' '}
        for every field, auth type and pagination strategy.
      </Typography>
      <MetadataFields
        values={form}
        onChange={set}
        titleHelperText={TITLE_FROM_SPEC}
        descriptionHelperText={DESCRIPTION_FROM_SPEC}
      />
      <TextField
        label="Connector spec (JSON)"
        multiline
        minRows={14}
        maxRows={30}
        value={form.specText}
        onChange={(event) => set({ specText: event.target.value })}
        slotProps={{ htmlInput: { spellCheck: false, style: { fontFamily: 'monospace', fontSize: 13 } } }}
      />
      <TextField
        label="Test read values (JSON, optional)"
        placeholder='{"settings": {"city": "Oslo"}, "auth_data": {"api_key": "…"}}'
        helperText="Settings and credentials for Test Read only; they are not stored."
        multiline
        minRows={2}
        value={testValues}
        onChange={(event) => setTestValues(event.target.value)}
        slotProps={{ htmlInput: { spellCheck: false, style: { fontFamily: 'monospace', fontSize: 13 } } }}
      />
      {error && (
        <Alert severity="error" role="alert">
          {error}
          {problems.length > 0 && (
            <List dense disablePadding aria-label="Problems in the spec">
              {problems.map((problem, index) => (
                <ListItem key={index} disableGutters>
                  <ListItemText
                    primary={problem.path ? `${problem.path}: ${problem.message}` : problem.message}
                  />
                </ListItem>
              ))}
            </List>
          )}
        </Alert>
      )}
      <Button
        type="submit"
        variant="contained"
        size="large"
        disabled={upload.isPending}
        sx={{ alignSelf: 'flex-start' }}
      >
        {upload.isPending ? 'Uploading…' : 'Upload Connector'}
      </Button>
      <Button
        variant="outlined"
        size="large"
        onClick={tryRead}
        disabled={testRead.isPending}
        sx={{ alignSelf: 'flex-start' }}
      >
        {testRead.isPending ? 'Reading…' : 'Test Read'}
      </Button>
      {testRead.data && <TestReadResultView result={testRead.data} />}
    </Stack>
  );
}
