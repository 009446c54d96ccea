import FormControlLabel from '@mui/material/FormControlLabel';
import InputAdornment from '@mui/material/InputAdornment';
import Stack from '@mui/material/Stack';
import Switch from '@mui/material/Switch';
import TextField from '@mui/material/TextField';

import { descriptionAdvice, LicenceField } from '../../components/LicenceField';
/**
 * What the catalogue shows of an upload. A dataset also has a category, keywords and a license; a
 * form without them (the connector's) does not show those fields.
 */
export interface MetadataValues {
  title: string;
  description: string;
  category?: string;
  keywords?: string;
  licence?: string;
  price: string;
  isPublic: boolean;
}

interface Props {
  values: MetadataValues;
  onChange: (change: Partial<MetadataValues>) => void;
  priceHelperText?: string;
  /** Messages of fields that must change, shown on the field. */
  errors?: { title?: string; price?: string };
  /** Set when an empty title or description is filled from elsewhere (a connector's spec). */
  titleHelperText?: string;
  descriptionHelperText?: string;
}

/** The catalogue details of both upload tabs: title, description, (category, keywords, license), price, public. */
export function MetadataFields({
  values,
  onChange,
  priceHelperText,
  titleHelperText,
  descriptionHelperText,
  errors = {},
}: Props) {
  return (
    <>
      <TextField
        label="Title"
        required={!titleHelperText}
        error={!!errors.title}
        helperText={errors.title ?? titleHelperText}
        value={values.title}
        onChange={(event) => onChange({ title: event.target.value })}
      />
      <TextField
        label="Description"
        multiline
        minRows={2}
        helperText={descriptionHelperText ?? descriptionAdvice(values.description)}
        value={values.description}
        onChange={(event) => onChange({ description: event.target.value })}
      />
      {values.category !== undefined && values.keywords !== undefined && (
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
          <TextField
            label="Category"
            fullWidth
            value={values.category}
            onChange={(event) => onChange({ category: event.target.value })}
          />
          <TextField
            label="Keywords"
            helperText="Comma-separated"
            fullWidth
            value={values.keywords}
            onChange={(event) => onChange({ keywords: event.target.value })}
          />
        </Stack>
      )}
      {values.licence !== undefined && (
        <LicenceField value={values.licence} onChange={(licence) => onChange({ licence })} />
      )}
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ alignItems: { sm: 'center' } }}>
        <TextField
          label="Price"
          type="number"
          error={!!errors.price}
          helperText={errors.price ?? priceHelperText}
          value={values.price}
          onChange={(event) => onChange({ price: event.target.value })}
          slotProps={{
            htmlInput: { min: 0, step: 0.01 },
            input: { startAdornment: <InputAdornment position="start">$</InputAdornment> },
          }}
          sx={{ maxWidth: { sm: 200 } }}
        />
        <FormControlLabel
          control={
            <Switch
              checked={values.isPublic}
              onChange={(event) => onChange({ isPublic: event.target.checked })}
            />
          }
          label="Public (listed for everyone)"
        />
      </Stack>
    </>
  );
}
