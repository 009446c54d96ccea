import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { useState } from 'react';

/** The licences the API stores by SPDX id (the same list as src/common/licences.ts). */
export const LICENCES: ReadonlyArray<{ id: string; title: string }> = [
  { id: 'CC-BY-4.0', title: 'Creative Commons Attribution 4.0' },
  { id: 'CC-BY-SA-4.0', title: 'Creative Commons Attribution Share Alike 4.0' },
  { id: 'CC0-1.0', title: 'Creative Commons Zero 1.0 (public domain)' },
  { id: 'ODbL-1.0', title: 'Open Data Commons Open Database License 1.0' },
  { id: 'ODC-By-1.0', title: 'Open Data Commons Attribution License 1.0' },
  { id: 'PDDL-1.0', title: 'Open Data Commons Public Domain Dedication and License 1.0' },
  { id: 'OGL-UK-3.0', title: 'Open Government Licence v3.0' },
  { id: 'MIT', title: 'MIT License' },
  { id: 'Apache-2.0', title: 'Apache License 2.0' },
];

const NONE = '';
const OTHER = 'other';

/** A licence chosen from the list, or "Other" with the owner's own words. */
export function LicenceField({ value, onChange }: { value: string; onChange: (licence: string) => void }) {
  const listed = LICENCES.some((licence) => licence.id === value);
  const [other, setOther] = useState(!listed && value !== '');
  const choice = listed ? value : other ? OTHER : NONE;
  return (
    <Stack spacing={2}>
      <TextField
        select
        label="License"
        fullWidth
        helperText="The terms buyers get the data under, shown on its page"
        value={choice}
        onChange={(event) => {
          const picked = event.target.value;
          setOther(picked === OTHER);
          onChange(picked === OTHER || picked === NONE ? '' : picked);
        }}
      >
        <MenuItem value={NONE}>No licence given</MenuItem>
        {LICENCES.map((licence) => (
          <MenuItem key={licence.id} value={licence.id}>
            {licence.title} ({licence.id})
          </MenuItem>
        ))}
        <MenuItem value={OTHER}>Other…</MenuItem>
      </TextField>
      {choice === OTHER && (
        <TextField
          label="Other license"
          fullWidth
          helperText="Its name or web address, in your words"
          value={value}
          onChange={(event) => onChange(event.target.value)}
          slotProps={{ htmlInput: { maxLength: 500 } }}
        />
      )}
    </Stack>
  );
}

/** Search engines show a dataset's description only from this length on. */
export const SHORT_DESCRIPTION = 50;

/** The helper text of a description field: a warning while it is shorter than search engines want. */
export function descriptionAdvice(description: string): string | undefined {
  const length = description.trim().length;
  return length < SHORT_DESCRIPTION
    ? `Search engines show descriptions of at least ${SHORT_DESCRIPTION} characters (${length} so far)`
    : undefined;
}
