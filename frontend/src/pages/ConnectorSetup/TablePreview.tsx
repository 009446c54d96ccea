import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useEffect } from 'react';
import { Link as RouterLink } from 'react-router-dom';
import { useInstanceTableRows } from '../../api/connectors';
import { queryPagePath } from '../../features/query/queryRules';
import { LazyDataTable } from '../Detail/LazyDataTable';

const columnName = (column: string | { name: string }) => (typeof column === 'string' ? column : column.name);

/**
 * 'Existing Dataset Preview': the latest 100 rows of one of the instance's tables; named by its
 * stream when the instance fills several. Query opens the table, by its readable name, in the SQL workspace.
 */
export function TablePreview({
  tableName,
  readableName,
  stream,
}: {
  tableName: string;
  readableName: string;
  stream?: string;
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
      <Typography id={headingId} variant="h5" component="h2" gutterBottom>
        {stream ? `Existing Dataset Preview: ${stream}` : 'Existing Dataset Preview'}
      </Typography>
      <Stack
        direction="row"
        spacing={2}
        sx={{ mb: 2, alignItems: 'center', justifyContent: 'space-between', flexWrap: 'wrap', rowGap: 1 }}
      >
        <Typography color="text.secondary">Latest 100 rows fetched.</Typography>
        <Button variant="outlined" size="small" component={RouterLink} to={queryPagePath(readableName)}>
          Query
        </Button>
      </Stack>
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
