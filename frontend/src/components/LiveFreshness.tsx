import Tooltip from '@mui/material/Tooltip';
import Typography, { type TypographyProps } from '@mui/material/Typography';
import { freshness, type FreshnessFacts } from '../features/live/freshness';
import { useNow } from './useNow';

const COLORS = { fresh: 'success.dark', stale: 'error.main', pending: 'text.secondary' } as const;

/**
 * "Updated 12 minutes ago" (the exact time on hover and for screen readers' <time>), or "Stale
 * since …" in red once the listing is overdue.
 */
export function LiveFreshness({ facts, ...props }: { facts: FreshnessFacts } & TypographyProps) {
  const now = useNow();
  const shown = freshness(facts, now);
  const moment = shown.state === 'stale' ? facts.stale_since : facts.last_refreshed_at;
  const text = (
    <Typography
      variant="body2"
      color={COLORS[shown.state]}
      sx={{ fontWeight: shown.state === 'stale' ? 600 : undefined }}
      {...props}
    >
      {moment ? <time dateTime={moment}>{shown.text}</time> : shown.text}
    </Typography>
  );
  return shown.exact ? (
    <Tooltip title={shown.exact} describeChild>
      {text}
    </Tooltip>
  ) : (
    text
  );
}
