import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import LinearProgress from '@mui/material/LinearProgress';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { FormEvent, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { ApiError } from '../../api/client';
import { useDismissNotice, useNotify } from '../../components/useNotify';
import { afterUploadPath } from '../../features/upload/connectorUpload';
import {
  checkDatasetUpload,
  chosenFileProblem,
  DatasetUploadForm,
  isWorkbookFileName,
  UPLOADED,
} from '../../features/upload/datasetUpload';
import { useDatasetUpload } from '../../api/assets';
import { CsvPreviewStep } from './CsvPreviewStep';
import { MetadataFields } from './MetadataFields';
import { useCsvPreview } from './useCsvPreview';

const EMPTY: DatasetUploadForm = {
  title: '',
  description: '',
  category: '',
  keywords: '',
  licence: '',
  price: '',
  isPublic: true,
  file: null,
};

/** Upload Dataset: a CSV file and its catalogue details; the file streams to the server with a progress bar. */
export function UploadDatasetTab() {
  const notify = useNotify();
  const navigate = useNavigate();
  const upload = useDatasetUpload();
  const [form, setForm] = useState(EMPTY);
  const csv = useCsvPreview();
  const [sheet, setSheet] = useState('');
  const workbook = form.file !== null && isWorkbookFileName(form.file.name);
  const [error, setError] = useState<string | null>(null);
  const dismiss = useDismissNotice();
  const [warned, setWarned] = useState<string | null>(null);
  // What the message was about has changed: it no longer stands until the next Upload says so,
  // neither beside the form nor in the snackbar.
  const set = (change: Partial<DatasetUploadForm>) => {
    setForm({ ...form, ...change });
    setError(null);
    if (warned) dismiss(warned);
    setWarned(null);
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const checked = checkDatasetUpload(form);
    if (checked.error !== undefined) {
      setError(checked.detail ?? checked.error);
      notify(checked.error, 'warning');
      setWarned(checked.error);
      return;
    }
    setError(null);
    upload.mutate(
      {
        fields: {
          ...checked.fields,
          ...(workbook ? (sheet.trim() ? { sheet: sheet.trim() } : {}) : csv.uploadFields()),
        },
        file: form.file as File,
      },
      {
        onSuccess: (answer) => {
          notify(UPLOADED, 'success');
          navigate(
            answer.redirectUrl
              ? afterUploadPath(answer, window.location.origin)
              : `/dataset_profile/${answer.id}`,
          );
        },
        onError: (failure) => {
          const detail = failure instanceof ApiError && failure.message ? failure.message : '';
          setError(detail ? `Upload failed: ${detail}` : 'Upload failed');
          notify('Upload failed', 'error');
        },
      },
    );
  };

  return (
    <Stack component="form" spacing={2.5} onSubmit={submit} noValidate aria-label="Upload dataset">
      <Typography color="text.secondary">
        Upload a CSV file, an Excel workbook (.xlsx; first row the column names) or a Parquet file. It becomes
        a table you can preview, share, sell and stream. Before it is stored you see how it was read
        (delimiter, encoding, numbers, dates) and each column&apos;s type, and can change them.
      </Typography>
      <MetadataFields values={form} onChange={set} priceHelperText="0 or empty means free" />
      <Box>
        <Button variant="outlined" component="label">
          Choose CSV, Excel or Parquet file
          <input
            hidden
            type="file"
            accept=".csv,text/csv,.xlsx,.parquet"
            aria-label="CSV file"
            onChange={(event) => {
              const file = event.target.files?.[0] ?? null;
              set({ file });
              // A file of the wrong kind is said at once, not only at Upload.
              setError(chosenFileProblem(file));
              csv.read(file);
            }}
          />
        </Button>
        <Typography component="span" sx={{ ml: 2 }} color={form.file ? 'text.primary' : 'text.secondary'}>
          {form.file ? `${form.file.name} (${formatSize(form.file.size)})` : 'No file chosen'}
        </Typography>
      </Box>
      {workbook && (
        <TextField
          label="Sheet"
          value={sheet}
          onChange={(event) => setSheet(event.target.value)}
          helperText="The sheet to load; the first one when empty"
          sx={{ maxWidth: 360 }}
        />
      )}
      {csv.pending && <LinearProgress aria-label="Reading the file" />}
      {csv.failure && (
        <Alert severity="warning" role="alert">
          {csv.failure}
        </Alert>
      )}
      {csv.preview && form.file && (
        <CsvPreviewStep
          preview={csv.preview}
          types={csv.types}
          disabled={csv.pending || upload.isPending}
          onDialect={(change) => csv.changeDialect(form.file as File, change)}
          onType={csv.changeType}
        />
      )}
      {upload.isPending && (
        <Box aria-live="polite">
          <LinearProgress variant="determinate" value={upload.percent} aria-label="Upload progress" />
          <Typography variant="body2" color="text.secondary" sx={{ mt: 0.5 }}>
            {upload.percent < 100 ? `Uploading… ${upload.percent}%` : 'Processing the file…'}
          </Typography>
        </Box>
      )}
      {error && (
        <Alert severity="error" role="alert">
          {error}
        </Alert>
      )}
      <Button
        type="submit"
        variant="contained"
        size="large"
        disabled={upload.isPending || csv.pending}
        sx={{ alignSelf: 'flex-start' }}
      >
        {upload.isPending ? 'Uploading…' : 'Upload Dataset'}
      </Button>
    </Stack>
  );
}

function formatSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}
