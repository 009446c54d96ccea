import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { AuditEvent, auditExportUrl, useMyAuditEvents } from '../../api/audit';
import { auditEventLabel } from './auditEventLabel';

/** What happened on the account (sign-ins, keys, purchases, …), newest first, with downloads. */
export function ActivityLogSection() {
  const events = useMyAuditEvents();
  const rows = events.data?.pages.flat() ?? [];
  return (
    <Paper
      variant="outlined"
      component="section"
      aria-labelledby="activity-heading"
      sx={{ p: { xs: 3, sm: 4 }, mt: 3 }}
    >
      <Typography id="activity-heading" variant="h5" component="h2" gutterBottom>
        Activity log
      </Typography>
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1} sx={{ mb: 2 }}>
        <Button variant="outlined" href={auditExportUrl('csv')} download>
          Download CSV
        </Button>
        <Button variant="outlined" href={auditExportUrl('jsonl')} download>
          Download JSON Lines
        </Button>
      </Stack>
      {events.isPending ? (
        <Skeleton variant="rounded" height={80} />
      ) : events.error ? (
        <Typography color="text.secondary">Your activity log could not be loaded.</Typography>
      ) : rows.length === 0 ? (
        <Typography color="text.secondary">Nothing recorded yet.</Typography>
      ) : (
        <Stack spacing={2}>
          <Stack component="ul" spacing={1} sx={{ p: 0, m: 0, listStyle: 'none' }} aria-label="Activity">
            {rows.map((event) => (
              <EventRow key={event.id} event={event} />
            ))}
          </Stack>
          {events.hasNextPage && (
            <Button
              sx={{ alignSelf: 'flex-start' }}
              disabled={events.isFetchingNextPage}
              onClick={() => void events.fetchNextPage()}
            >
              Show older
            </Button>
          )}
        </Stack>
      )}
    </Paper>
  );
}

function EventRow(props: { event: AuditEvent }) {
  const { event } = props;
  return (
    <li>
      <Typography sx={{ fontWeight: 600 }}>{auditEventLabel(event.type)}</Typography>
      <Typography variant="body2" color="text.secondary" sx={{ overflowWrap: 'anywhere' }}>
        {new Date(event.occurred_at).toLocaleString()} · {event.ip || 'Unknown address'} ·{' '}
        {credentialText(event.credential.kind)}
      </Typography>
    </li>
  );
}

function credentialText(kind: string): string {
  if (kind === 'session') return 'signed in';
  if (kind === 'api_key') return 'personal API key';
  if (kind === 'api_token') return 'API token';
  return 'no sign-in';
}
