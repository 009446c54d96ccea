import Button from '@mui/material/Button';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { AuditEvent, organisationAuditExportUrl, useOrganisationAuditEvents } from '../../api/audit';
import type { Member } from '../../api/organisations';
import { actorName, ORGANISATION_AUDIT_FILTERS, organisationAuditLabel } from './organisationAuditLog';

const ALL = 'all';

/** For owners and admins: what happened in the organisation, newest first, filtered and downloadable. */
export function OrganisationAuditSection(props: {
  organisationId: string;
  members: readonly Member[] | undefined;
}) {
  const { organisationId, members } = props;
  const [type, setType] = useState<string>(ALL);
  const types = type === ALL ? [] : [type];
  const events = useOrganisationAuditEvents(organisationId, types, true);
  const rows = events.data?.pages.flat() ?? [];

  return (
    <Paper variant="outlined" component="section" aria-labelledby="audit-heading" sx={{ p: 3, mb: 3 }}>
      <Typography id="audit-heading" variant="h5" component="h2" sx={{ mb: 2 }}>
        Audit log
      </Typography>
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1} sx={{ mb: 2 }}>
        <TextField
          select
          size="small"
          label="Events"
          value={type}
          onChange={(event) => setType(event.target.value)}
          sx={{ minWidth: { sm: 240 } }}
        >
          <MenuItem value={ALL}>All events</MenuItem>
          {ORGANISATION_AUDIT_FILTERS.map((option) => (
            <MenuItem key={option} value={option}>
              {organisationAuditLabel(option)}
            </MenuItem>
          ))}
        </TextField>
        <Button variant="outlined" href={organisationAuditExportUrl(organisationId, 'csv', types)} download>
          Download CSV
        </Button>
        <Button variant="outlined" href={organisationAuditExportUrl(organisationId, 'jsonl', types)} download>
          Download JSON Lines
        </Button>
      </Stack>
      {events.isPending ? (
        <Skeleton variant="rounded" height={80} />
      ) : events.error ? (
        <Typography color="text.secondary">The audit log could not be loaded.</Typography>
      ) : rows.length === 0 ? (
        <Typography color="text.secondary">No events match.</Typography>
      ) : (
        <Stack spacing={2}>
          <Stack component="ul" spacing={1} sx={{ p: 0, m: 0, listStyle: 'none' }} aria-label="Audit events">
            {rows.map((event) => (
              <EventRow key={event.id} event={event} members={members} />
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

function EventRow(props: { event: AuditEvent; members: readonly Member[] | undefined }) {
  const { event, members } = props;
  return (
    <li>
      <Typography sx={{ fontWeight: 600 }}>{organisationAuditLabel(event.type)}</Typography>
      <Typography variant="body2" color="text.secondary" sx={{ overflowWrap: 'anywhere' }}>
        {new Date(event.occurred_at).toLocaleString()} · {actorName(event.user_id, members)} ·{' '}
        {event.ip || 'Unknown address'}
      </Typography>
    </li>
  );
}
