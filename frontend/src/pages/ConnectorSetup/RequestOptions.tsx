import Checkbox from '@mui/material/Checkbox';
import FormControl from '@mui/material/FormControl';
import FormControlLabel from '@mui/material/FormControlLabel';
import InputLabel from '@mui/material/InputLabel';
import MenuItem from '@mui/material/MenuItem';
import Select from '@mui/material/Select';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { bodyTemplateError, parseRefreshInterval, StreamChoice } from '../../features/detail/requestSettings';

export interface RequestOptionValues {
  refreshInterval: string;
  override: boolean;
  method: 'GET' | 'POST';
  bodyTemplate: string;
  /** The operation (stream) to run; '' = the spec's first. */
  operationId: string;
}

interface Props {
  values: RequestOptionValues;
  onChange: (values: RequestOptionValues) => void;
  /** Only pro users (pro_user 1) may edit the refresh interval. */
  intervalEditable: boolean;
  /** The spec's operations when it has several. */
  streams: StreamChoice[];
}

export function RequestOptions({ values, onChange, intervalEditable, streams }: Props) {
  const intervalError = parseRefreshInterval(values.refreshInterval).error;
  const bodyError = bodyTemplateError(values.method, values.bodyTemplate);
  return (
    <Stack spacing={2}>
      {streams.length > 0 && (
        <FormControl>
          <InputLabel id="stream-label">Stream</InputLabel>
          <Select
            labelId="stream-label"
            label="Stream"
            value={streams.some((stream) => stream.id === values.operationId) ? values.operationId : ''}
            onChange={(event) => onChange({ ...values, operationId: event.target.value })}
          >
            {streams.map((stream) => (
              <MenuItem key={stream.id || 'first'} value={stream.id}>
                {stream.label}
              </MenuItem>
            ))}
          </Select>
        </FormControl>
      )}
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
        <TextField
          label="Refresh Interval (minutes)"
          type="number"
          value={values.refreshInterval}
          onChange={(event) => onChange({ ...values, refreshInterval: event.target.value })}
          disabled={!intervalEditable}
          error={!!intervalError}
          helperText={
            intervalError ?? (intervalEditable ? '0 means manual runs only.' : 'Available to pro users.')
          }
          slotProps={{ htmlInput: { min: 0, step: 1 } }}
          sx={{ flex: 1 }}
        />
        <FormControl sx={{ minWidth: 160 }}>
          <InputLabel id="http-method-label">HTTP Method</InputLabel>
          <Select
            labelId="http-method-label"
            label="HTTP Method"
            value={values.method}
            onChange={(event) => onChange({ ...values, method: event.target.value as 'GET' | 'POST' })}
          >
            <MenuItem value="GET">GET</MenuItem>
            <MenuItem value="POST">POST</MenuItem>
          </Select>
        </FormControl>
      </Stack>
      <FormControlLabel
        control={
          <Checkbox
            checked={values.override}
            onChange={(event) => onChange({ ...values, override: event.target.checked })}
          />
        }
        label="Override existing table on rerun"
      />
      {values.method === 'POST' && (
        <TextField
          label="POST body template (JSON)"
          multiline
          minRows={4}
          value={values.bodyTemplate}
          onChange={(event) => onChange({ ...values, bodyTemplate: event.target.value })}
          error={!!bodyError}
          helperText={bodyError ?? 'Use {{key}} placeholders for setting values.'}
          slotProps={{ htmlInput: { spellCheck: false, style: { fontFamily: 'monospace' } } }}
        />
      )}
    </Stack>
  );
}
