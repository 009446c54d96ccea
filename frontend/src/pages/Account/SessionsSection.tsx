import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Paper from '@mui/material/Paper';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { ActiveSession, useSessions, useSignOutOtherSessions, useSignOutSession } from '../../api/sessions';
import { failureText } from '../../api/users';
import { useNotify } from '../../components/useNotify';

const FAILED = { fallback: 'Failed to sign out', network: 'Error signing out' };

/** Where the user is logged in (browser, address, last seen), with Sign out per session. */
export function SessionsSection() {
  const sessions = useSessions();
  const signOutOthers = useSignOutOtherSessions();
  const notify = useNotify();
  const others = sessions.data?.filter((session) => !session.current).length ?? 0;
  return (
    <Paper
      variant="outlined"
      component="section"
      aria-labelledby="sessions-heading"
      sx={{ p: { xs: 3, sm: 4 }, mt: 3 }}
    >
      <Typography id="sessions-heading" variant="h5" component="h2" gutterBottom>
        Sessions
      </Typography>
      {sessions.isPending ? (
        <Skeleton variant="rounded" height={80} />
      ) : sessions.error ? (
        <Typography color="text.secondary">Your sessions could not be loaded.</Typography>
      ) : (
        <Stack spacing={2}>
          <Stack
            component="ul"
            spacing={1}
            sx={{ p: 0, m: 0, listStyle: 'none' }}
            aria-label="Active sessions"
          >
            {sessions.data.map((session) => (
              <SessionRow key={session.id} session={session} />
            ))}
          </Stack>
          <Button
            variant="outlined"
            sx={{ alignSelf: 'flex-start' }}
            disabled={others === 0 || signOutOthers.isPending}
            onClick={() =>
              signOutOthers.mutate(undefined, {
                onSuccess: (answer) => notify(answer.message, 'success'),
                onError: (error) => notify(failureText(error, FAILED), 'error'),
              })
            }
          >
            Sign out everywhere else
          </Button>
        </Stack>
      )}
    </Paper>
  );
}

function SessionRow(props: { session: ActiveSession }) {
  const signOut = useSignOutSession();
  const notify = useNotify();
  const { session } = props;
  const lastSeen = session.last_seen_at ? new Date(session.last_seen_at).toLocaleString() : 'unknown';
  return (
    <Stack
      component="li"
      direction="row"
      spacing={2}
      sx={{ alignItems: 'center', justifyContent: 'space-between' }}
    >
      <div>
        <Typography sx={{ fontWeight: 600 }}>{session.browser}</Typography>
        <Typography variant="body2" color="text.secondary">
          {session.ip || 'Unknown address'} · last seen {lastSeen}
        </Typography>
      </div>
      {session.current ? (
        <Chip label="This session" size="small" />
      ) : (
        <Button
          size="small"
          disabled={signOut.isPending}
          aria-label={`Sign out ${session.browser}`}
          onClick={() =>
            signOut.mutate(session.id, {
              onSuccess: (answer) => notify(answer.message, 'success'),
              onError: (error) => notify(failureText(error, FAILED), 'error'),
            })
          }
        >
          Sign out
        </Button>
      )}
    </Stack>
  );
}
