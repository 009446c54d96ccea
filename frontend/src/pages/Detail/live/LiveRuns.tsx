import Chip from '@mui/material/Chip';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { LiveRun } from '../../../api/liveProducts';
import { exactTime } from '../../../features/live/freshness';
import { runOutcomeColor, runOutcomeLabel } from '../../../features/products/schemaChange';

/** The last refreshes, newest first: outcome, when, rows after it; the owner also reads why one failed. */
export function LiveRuns({ runs }: { runs: LiveRun[] }) {
  if (runs.length === 0)
    return <Typography color="text.secondary">No refreshes since publishing yet.</Typography>;
  return (
    <Stack component="ol" aria-label="Last refreshes" spacing={1} sx={{ listStyle: 'none', p: 0, m: 0 }}>
      {runs.map((run) => (
        <Stack
          component="li"
          key={`${run.finished_at}-${run.outcome}`}
          direction="row"
          spacing={1}
          useFlexGap
          sx={{ alignItems: 'baseline', flexWrap: 'wrap' }}
        >
          <Chip size="small" label={runOutcomeLabel(run.outcome)} color={runOutcomeColor(run.outcome)} />
          <Typography variant="body2" component="time" dateTime={run.finished_at}>
            {exactTime(run.finished_at)}
          </Typography>
          <Typography variant="body2" color="text.secondary">
            {run.row_count.toLocaleString()} {run.row_count === 1 ? 'row' : 'rows'}
          </Typography>
          {run.error && (
            <Typography variant="caption" color="error" sx={{ flexBasis: '100%', overflowWrap: 'anywhere' }}>
              {run.error}
            </Typography>
          )}
        </Stack>
      ))}
    </Stack>
  );
}
