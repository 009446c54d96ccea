import Box from '@mui/material/Box';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { DatasetActivity } from '../../../api/assets';

const SERIES = [
  { key: 'grid_views', label: 'Grid views', color: '#1976d2' },
  { key: 'stream_requests', label: 'Stream and OData reads', color: '#9c27b0' },
  { key: 'subscribers', label: 'Subscribers', color: '#2e7d32' },
] as const;

/** 90 days of use as three small line charts (SVG), one per measure, with the latest value. */
export function ActivityChart({ activity }: { activity: DatasetActivity }) {
  const days = activity.days;
  return (
    <Stack spacing={2} aria-label="Activity over the last 90 days">
      {SERIES.map((series) => {
        const values = days.map((day) => day[series.key]);
        const max = Math.max(1, ...values);
        const total =
          series.key === 'subscribers' ? (values.at(-1) ?? 0) : values.reduce((sum, value) => sum + value, 0);
        const points = values
          .map(
            (value, index) => `${(index / Math.max(1, values.length - 1)) * 100},${30 - (value / max) * 28}`,
          )
          .join(' ');
        return (
          <Box key={series.key}>
            <Typography variant="body2" sx={{ fontWeight: 600 }}>
              {series.label}: {total.toLocaleString()}
              {series.key === 'subscribers' ? ' now' : ' in 90 days'}
            </Typography>
            <Box
              component="svg"
              viewBox="0 0 100 32"
              preserveAspectRatio="none"
              role="img"
              aria-label={`${series.label} per day`}
              sx={{ width: '100%', height: 48, display: 'block' }}
            >
              <polyline
                points={points}
                fill="none"
                stroke={series.color}
                strokeWidth={1.2}
                vectorEffect="non-scaling-stroke"
              />
            </Box>
            <Stack direction="row" sx={{ justifyContent: 'space-between' }}>
              <Typography variant="caption" color="text.secondary">
                {days[0]?.day}
              </Typography>
              <Typography variant="caption" color="text.secondary">
                {days.at(-1)?.day}
              </Typography>
            </Stack>
          </Box>
        );
      })}
    </Stack>
  );
}
