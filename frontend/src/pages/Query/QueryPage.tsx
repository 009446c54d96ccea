import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Container from '@mui/material/Container';
import Link from '@mui/material/Link';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import Typography from '@mui/material/Typography';
import { useMemo, useState } from 'react';
import { Link as RouterLink, useSearchParams } from 'react-router-dom';
import { useQueryTables } from '../../api/query';
import { completionSchema, tableQuery } from '../../features/query/queryRules';
import { HistoryPanel } from './HistoryPanel';
import { QueryResultPanel } from './QueryResultPanel';
import { QueryToolbar } from './QueryToolbar';
import { SavedQueriesPanel } from './SavedQueriesPanel';
import { SaveQueryDialog } from './SaveQueryDialog';
import { SqlEditor } from './SqlEditor';
import { TablesPanel } from './TablesPanel';
import { useQueryRun } from './useQueryRun';

type SidePanel = 'tables' | 'saved' | 'history';

/** /query: the analyst's SQL workspace over the tables the user holds. */
export function QueryPage() {
  const [params] = useSearchParams();
  const table = params.get('table');
  const [sql, setSql] = useState(() => (table ? tableQuery(table) : ''));
  const [panel, setPanel] = useState<SidePanel>('tables');
  const [saving, setSaving] = useState(false);
  const tables = useQueryTables();
  const schema = useMemo(() => completionSchema(tables.data ?? []), [tables.data]);
  const query = useQueryRun();
  const canRun = sql.trim().length > 0;

  return (
    <Container maxWidth="xl" sx={{ py: { xs: 2, md: 4 } }}>
      <Typography variant="h4" component="h1" gutterBottom>
        Query
      </Typography>
      <Typography color="text.secondary" sx={{ mb: 2 }}>
        Read-only SQL (PostgreSQL) over the datasets and connector tables you hold.
      </Typography>
      <Box
        sx={{
          display: 'grid',
          gap: 2,
          gridTemplateColumns: { xs: 'minmax(0, 1fr)', lg: 'minmax(0, 3fr) minmax(0, 1fr)' },
          alignItems: 'start',
        }}
      >
        <Stack spacing={2} sx={{ minWidth: 0 }}>
          <SqlEditor value={sql} onChange={setSql} onRun={query.run} schema={schema} />
          <QueryToolbar
            running={query.running}
            canRun={canRun}
            onRun={() => query.run(sql)}
            onCancel={query.cancel}
            onSave={() => setSaving(true)}
          />
          {query.error && (
            <Alert severity="error" role="alert" aria-label="Query error">
              {query.error}
              {query.errorListing && (
                <>
                  {' '}
                  <Link component={RouterLink} to={`/dataset_profile/${query.errorListing.id}`}>
                    Open {query.errorListing.title}
                  </Link>
                </>
              )}
            </Alert>
          )}
          {query.cancelled && <Alert severity="info">Query cancelled.</Alert>}
          {query.result && !query.running && <QueryResultPanel result={query.result} sql={query.ranSql} />}
        </Stack>
        <Paper
          variant="outlined"
          component="aside"
          aria-label="Tables, saved queries and history"
          sx={{ minWidth: 0 }}
        >
          <Tabs
            value={panel}
            onChange={(_event, next: SidePanel) => setPanel(next)}
            variant="fullWidth"
            aria-label="Workspace panels"
          >
            <Tab label="Tables" value="tables" />
            <Tab label="Saved" value="saved" />
            <Tab label="History" value="history" />
          </Tabs>
          <Box sx={{ p: 1.5 }}>
            {panel === 'tables' && <TablesPanel onOpen={setSql} />}
            {panel === 'saved' && <SavedQueriesPanel onOpen={setSql} />}
            {panel === 'history' && <HistoryPanel onOpen={setSql} />}
          </Box>
        </Paper>
      </Box>
      <SaveQueryDialog sql={sql} open={saving} onClose={() => setSaving(false)} />
    </Container>
  );
}
