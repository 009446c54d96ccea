import List from '@mui/material/List';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemText from '@mui/material/ListItemText';
import Typography from '@mui/material/Typography';
import { useQueryTables } from '../../api/query';
import { tableQuery } from '../../features/query/queryRules';

/** The tables the caller may query, with their columns; one click opens a table's first rows. */
export function TablesPanel({ onOpen }: { onOpen: (sql: string) => void }) {
  const tables = useQueryTables();
  if (tables.isPending) return <Typography color="text.secondary">Loading…</Typography>;
  if (tables.error) return <Typography color="error">Your tables could not be loaded.</Typography>;
  if (tables.data.length === 0)
    return (
      <Typography color="text.secondary">
        No tables yet: get or upload a dataset, or run a connector, to query it here.
      </Typography>
    );
  return (
    <List dense aria-label="Your tables" disablePadding sx={{ maxHeight: 420, overflowY: 'auto' }}>
      {tables.data.map((table) => (
        <ListItemButton key={table.name} onClick={() => onOpen(tableQuery(table.name))}>
          <ListItemText
            primary={table.name}
            secondary={`${table.title} · ${table.columns.map((column) => column.name).join(', ')}`}
            slotProps={{
              primary: { sx: { fontFamily: 'monospace', wordBreak: 'break-all' } },
              secondary: { sx: { wordBreak: 'break-word' } },
            }}
          />
        </ListItemButton>
      ))}
    </List>
  );
}
