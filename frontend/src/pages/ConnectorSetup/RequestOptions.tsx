import Checkbox from '@mui/material/Checkbox';
import FormControl from '@mui/material/FormControl';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormGroup from '@mui/material/FormGroup';
import FormHelperText from '@mui/material/FormHelperText';
import FormLabel from '@mui/material/FormLabel';
import InputLabel from '@mui/material/InputLabel';
import MenuItem from '@mui/material/MenuItem';
import Select from '@mui/material/Select';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import {
  bodyTemplateError,
  parseRefreshInterval,
  PICK_A_STREAM,
  StreamChoice,
} from '../../features/detail/requestSettings';

export interface RequestOptionValues {
  refreshInterval: string;
  override: boolean;
  method: 'GET' | 'POST';
  bodyTemplate: string;
  /** The checked operations (streams), each run into its own table. */
  operationIds: string[];
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
        <FormControl component="fieldset" error={values.operationIds.length === 0}>
          <FormLabel component="legend">Streams</FormLabel>
          <FormGroup row>
            {streams.map((stream) => (
              <FormControlLabel
                key={stream.id}
                control={
                  <Checkbox
                    checked={values.operationIds.includes(stream.id)}
                    onChange={(event) =>
                      onChange({
                        ...values,
                        operationIds: event.target.checked
                          ? [...values.operationIds, stream.id]
                          : values.operationIds.filter((id) => id !== stream.id),
                      })
                    }
                  />
                }
                label={stream.label}
              />
            ))}
          </FormGroup>
          <FormHelperText>
            {values.operationIds.length === 0
              ? PICK_A_STREAM
              : 'Each checked stream is fetched on every run into a table of its own.'}
          </FormHelperText>
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
