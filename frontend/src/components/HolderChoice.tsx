import FormControl from '@mui/material/FormControl';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormLabel from '@mui/material/FormLabel';
import Radio from '@mui/material/Radio';
import RadioGroup from '@mui/material/RadioGroup';
import type { Organisation } from '../api/organisations';

/** The value of "for me": no organisation. */
export const FOR_ME = '';

/**
 * Who gets or buys a dataset: the user, or one of the organisations they are an editor and above
 * of (every member of it then reads it). `value` is an organisation's id, or FOR_ME.
 */
export function HolderChoice(props: {
  organisations: Organisation[];
  value: string;
  onChange: (value: string) => void;
}) {
  return (
    <FormControl sx={{ mt: 2, minWidth: 0 }}>
      <FormLabel id="holder-choice-label">Get it</FormLabel>
      <RadioGroup
        aria-labelledby="holder-choice-label"
        value={props.value}
        onChange={(event) => props.onChange(event.target.value)}
      >
        <FormControlLabel value={FOR_ME} control={<Radio />} label="For me" />
        {props.organisations.map((organisation) => (
          <FormControlLabel
            key={organisation.id}
            value={organisation.id}
            control={<Radio />}
            label={`For ${organisation.name}`}
            sx={{ overflowWrap: 'anywhere' }}
          />
        ))}
      </RadioGroup>
    </FormControl>
  );
}
