import Button from '@mui/material/Button';
import List from '@mui/material/List';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemText from '@mui/material/ListItemText';
import Typography from '@mui/material/Typography';
import { QueryHistoryEntry, useClearHistory, useQueryHistory } from '../../api/query';
import { resultSummary } from '../../features/query/queryRules';

/** What became of a run, in a few words. */
function outcome(entry: QueryHistoryEntry): string {
  const when = new Date(entry.started_at).toLocaleString();
  if (entry.error) return `${when} · ${entry.error}`;
  if (entry.row_count === null) return `${when} · done in ${entry.elapsed_ms} ms`;
  return `${when} · ${resultSummary(entry.row_count, entry.elapsed_ms)}`;
}

/** The caller's recent runs, newest first; one click puts the SQL back in the editor. */
export function HistoryPanel({ onOpen }: { onOpen: (sql: string) => void }) {
  const history = useQueryHistory();
  const clear = useClearHistory();
  if (history.isPending) return <Typography color="text.secondary">Loading…</Typography>;
  if (history.error) return <Typography color="error">The history could not be loaded.</Typography>;
  if (history.data.length === 0) return <Typography color="text.secondary">No queries run yet.</Typography>;
  return (
    <>
      <List dense aria-label="Query history" disablePadding sx={{ maxHeight: 420, overflowY: 'auto' }}>
        {history.data.map((entry) => (
          <ListItemButton key={entry.id} onClick={() => onOpen(entry.sql)}>
            <ListItemText
              primary={entry.sql}
              secondary={outcome(entry)}
              slotProps={{
                primary: { noWrap: true, sx: { fontFamily: 'monospace', fontSize: 13 } },
                secondary: { color: entry.error ? 'error' : 'text.secondary' },
              }}
            />
          </ListItemButton>
        ))}
      </List>
      <Button size="small" onClick={() => clear.mutate()} disabled={clear.isPending} sx={{ mt: 1 }}>
        Clear history
      </Button>
    </>
  );
}
