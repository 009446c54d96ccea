import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { type ReactNode, useEffect } from 'react';
import { Link as RouterLink } from 'react-router-dom';
import { useInstanceTableRows } from '../../api/connectors';
import { queryPagePath } from '../../features/query/queryRules';
import { LazyDataTable } from '../Detail/LazyDataTable';

const columnName = (column: string | { name: string }) => (typeof column === 'string' ? column : column.name);

/**
 * 'Existing Dataset Preview': the latest 100 rows of one of the instance's tables; named by its
 * stream when the instance fills several. Query opens the table, by its readable name, in the SQL
 * workspace; `action` (Publish) shows once the table has rows.
 */
export function TablePreview({
  tableName,
  readableName,
  stream,
  action,
}: {
  tableName: string;
  readableName: string;
  stream?: string;
  action?: ReactNode;
}) {
  const headingId = `preview-heading-${tableName}`;
  const table = useInstanceTableRows(tableName);
  useEffect(() => {
    // Preview errors are only logged, never shown; a table not yet filled is simply empty.
    if (table.error) console.error('Table preview failed', table.error);
  }, [table.error]);
  const rows = table.data?.rows ?? [];
  // The run id is bookkeeping; the fetch time is worth seeing (the server puts internal columns last).
  const columns = (table.data?.columns ?? Object.keys(rows[0] ?? {})).filter(
    (column) => columnName(column) !== '_run_id',
  );
  return (
    <Paper variant="outlined" component="section" aria-labelledby={headingId} sx={{ p: { xs: 2, md: 3 } }}>
      <Stack
        direction="row"
        spacing={2}
        useFlexGap
        sx={{ alignItems: 'center', justifyContent: 'space-between', flexWrap: 'wrap', mb: 1 }}
      >
        <Typography id={headingId} variant="h5" component="h2">
          {stream ? `Existing Dataset Preview: ${stream}` : 'Existing Dataset Preview'}
        </Typography>
        <Stack direction="row" spacing={1}>
          <Button variant="outlined" size="small" component={RouterLink} to={queryPagePath(readableName)}>
            Query
          </Button>
          {rows.length > 0 && action}
        </Stack>
      </Stack>
      <Typography color="text.secondary" sx={{ mb: 2 }}>
        Latest 100 rows fetched.
      </Typography>
      {!table.isFetching && rows.length === 0 ? (
        <Typography role="status" sx={{ py: 4, textAlign: 'center' }} color="text.secondary">
          No rows yet. Run the connector (Run Now) to fill this table, or use Test Read to try it without
          writing anything.
        </Typography>
      ) : (
        <LazyDataTable
          label={stream ? `Existing dataset preview: ${stream}` : 'Existing dataset preview'}
          columns={columns}
          rows={rows}
          loading={table.isFetching}
          height={420}
        />
      )}
    </Paper>
  );
}
