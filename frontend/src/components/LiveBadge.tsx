import SensorsIcon from '@mui/icons-material/Sensors';
import Chip from '@mui/material/Chip';

/** Marks a dataset published from a connection and kept fresh by its refreshes. */
export function LiveBadge({ onDark = false }: { onDark?: boolean }) {
  return (
    <Chip
      size="small"
      icon={<SensorsIcon />}
      label="Live"
      color="success"
      variant={onDark ? 'filled' : 'outlined'}
      sx={onDark ? { color: 'common.white', '& .MuiChip-icon': { color: 'common.white' } } : undefined}
    />
  );
}
