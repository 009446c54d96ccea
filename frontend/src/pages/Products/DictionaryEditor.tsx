import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';

interface Props {
  columns: Array<{ name: string; type: string }>;
  values: Record<string, string>;
  onChange: (values: Record<string, string>) => void;
  loading: boolean;
}

/** The data dictionary: a description for each column of the table being published. */
export function DictionaryEditor({ columns, values, onChange, loading }: Props) {
  return (
    <Stack component="fieldset" spacing={1.5} sx={{ border: 0, p: 0, m: 0, minWidth: 0 }}>
      <Typography component="legend" variant="subtitle1" sx={{ mb: 1 }}>
        Data dictionary
      </Typography>
      {loading ? (
        <Typography color="text.secondary">Loading the table's columns…</Typography>
      ) : columns.length === 0 ? (
        <Typography color="text.secondary">
          The table has no columns yet: run the connection, then publish it.
        </Typography>
      ) : (
        columns.map((column) => (
          <TextField
            key={column.name}
            label={`${column.name} (${column.type})`}
            size="small"
            value={values[column.name] ?? ''}
            onChange={(event) => onChange({ ...values, [column.name]: event.target.value })}
            placeholder="What this column holds"
            slotProps={{ htmlInput: { maxLength: 2000 } }}
          />
        ))
      )}
    </Stack>
  );
}
