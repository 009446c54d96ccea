import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import type { AuthField } from '../../api/connectors';

interface Props {
  fields: AuthField[];
  values: Record<string, string>;
  onChange: (values: Record<string, string>) => void;
  /** Credentials are never sent back; an instance that has some may leave the boxes empty. */
  stored: boolean;
}

export function CredentialsSection({ fields, values, onChange, stored }: Props) {
  if (fields.length === 0) return null;
  return (
    <Stack spacing={2} component="fieldset" sx={{ border: 0, p: 0, m: 0 }}>
      <Typography component="legend" variant="h6" sx={{ mb: 1 }}>
        Credentials
      </Typography>
      <Typography variant="body2" color="text.secondary">
        {stored
          ? 'Stored encrypted. Leave empty to keep the saved values.'
          : 'Stored encrypted and never shown again.'}
      </Typography>
      {fields.map((field) => (
        <TextField
          key={field.key}
          label={field.label}
          type="password"
          autoComplete="off"
          required={field.required && !stored}
          value={values[field.key] ?? ''}
          onChange={(event) => onChange({ ...values, [field.key]: event.target.value })}
        />
      ))}
    </Stack>
  );
}
