import Box from '@mui/material/Box';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { LiveInfo } from '../../../api/liveProducts';
import { LiveFreshness } from '../../../components/LiveFreshness';
import { exactTime, scheduleText } from '../../../features/live/freshness';
import { LiveRuns } from './LiveRuns';

/** A live dataset's promise: its schedule, how fresh its rows are, when the next refresh is due, its last runs. */
export function LivePanel({ live }: { live: LiveInfo }) {
  return (
    <Paper variant="outlined" component="section" aria-labelledby="live-heading" sx={{ p: { xs: 2, md: 3 } }}>
      <Typography id="live-heading" variant="h5" component="h2" gutterBottom>
        Live data
      </Typography>
      <Stack spacing={0.5} sx={{ mb: 2 }}>
        <Typography>{scheduleText(live.interval_minutes)}</Typography>
        <LiveFreshness facts={live} variant="body1" />
        {live.next_refresh_at && !live.stale_since && (
          <Typography variant="body2" color="text.secondary">
            Next refresh due {exactTime(live.next_refresh_at)}
          </Typography>
        )}
        {live.stale_since && (
          <Typography variant="body2" color="text.secondary">
            The last refreshes did not succeed; the rows shown are the last good ones.
          </Typography>
        )}
      </Stack>
      <Box>
        <Typography component="h3" variant="h6" gutterBottom>
          Last refreshes
        </Typography>
        <LiveRuns runs={live.runs} />
      </Box>
    </Paper>
  );
}
