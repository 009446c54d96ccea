import Chip from '@mui/material/Chip';
import Link from '@mui/material/Link';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import { ReactNode } from 'react';
import { Link as RouterLink } from 'react-router-dom';

const CHIP_COLORS: Record<string, 'warning' | 'success'> = { Private: 'warning', Live: 'success' };

interface Props {
  title: string;
  to: string;
  chips?: string[];
  children: ReactNode;
}

/** One listed item: its title (linking to its screen), tags, and its buttons, wrapping on phones. */
export function ItemRow({ title, to, chips = [], children }: Props) {
  return (
    <Paper
      variant="outlined"
      component="li"
      sx={{
        p: 2,
        listStyle: 'none',
        display: 'flex',
        flexWrap: 'wrap',
        gap: 1.5,
        alignItems: 'center',
        justifyContent: 'space-between',
      }}
    >
      <Stack
        direction="row"
        spacing={1}
        sx={{ alignItems: 'center', flexWrap: 'wrap', rowGap: 1, minWidth: 0 }}
      >
        <Link component={RouterLink} to={to} sx={{ fontWeight: 600, overflowWrap: 'anywhere' }}>
          {title}
        </Link>
        {chips.map((chip) => (
          <Chip
            key={chip}
            label={chip}
            size="small"
            color={CHIP_COLORS[chip] ?? 'default'}
            variant="outlined"
          />
        ))}
      </Stack>
      <Stack direction="row" spacing={1} useFlexGap sx={{ flexWrap: 'wrap' }}>
        {children}
      </Stack>
    </Paper>
  );
}

export function ItemList({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Stack component="ul" spacing={1.5} aria-label={label} sx={{ p: 0, m: 0 }}>
      {children}
    </Stack>
  );
}
