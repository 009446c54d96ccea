import AddIcon from '@mui/icons-material/Add';
import DeleteOutlineIcon from '@mui/icons-material/DeleteOutlined';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { addHeaderRow, HeaderRow, removeHeaderRow, updateHeaderRow } from '../../features/detail/headersList';

/** Custom key/value request headers with add and remove. */
export function HeadersEditor({
  rows,
  onChange,
}: {
  rows: HeaderRow[];
  onChange: (rows: HeaderRow[]) => void;
}) {
  return (
    <Stack spacing={1.5} component="fieldset" sx={{ border: 0, p: 0, m: 0 }}>
      <Typography component="legend" variant="subtitle1" sx={{ fontWeight: 600 }}>
        Custom headers
      </Typography>
      {rows.length === 0 && (
        <Typography variant="body2" color="text.secondary">
          No custom headers.
        </Typography>
      )}
      {rows.map((row, index) => (
        <Stack key={row.id} direction="row" spacing={1} sx={{ alignItems: 'center' }}>
          <TextField
            size="small"
            label={`Header ${index + 1} name`}
            value={row.key}
            onChange={(event) => onChange(updateHeaderRow(rows, row.id, { key: event.target.value }))}
            sx={{ flex: 1 }}
          />
          <TextField
            size="small"
            label={`Header ${index + 1} value`}
            value={row.value}
            onChange={(event) => onChange(updateHeaderRow(rows, row.id, { value: event.target.value }))}
            sx={{ flex: 1 }}
          />
          <IconButton
            aria-label={`Remove header ${index + 1}`}
            onClick={() => onChange(removeHeaderRow(rows, row.id))}
          >
            <DeleteOutlineIcon />
          </IconButton>
        </Stack>
      ))}
      <Button
        startIcon={<AddIcon />}
        onClick={() => onChange(addHeaderRow(rows))}
        sx={{ alignSelf: 'flex-start' }}
      >
        Add header
      </Button>
    </Stack>
  );
}
