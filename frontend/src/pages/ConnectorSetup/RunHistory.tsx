import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import CircularProgress from '@mui/material/CircularProgress';
import Paper from '@mui/material/Paper';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import type { ConnectorRun } from '../../api/connectors';
import { runStatusColor, runStatusLabel } from '../../features/detail/runs';

const when = (value?: string | null) => (value ? new Date(value).toLocaleString() : '—');

/** The instance's runs, newest first, with status, rows fetched and why a run may be incomplete. */
export function RunHistory({ runs, loading }: { runs: ConnectorRun[] | undefined; loading: boolean }) {
  return (
    <Paper variant="outlined" component="section" aria-labelledby="runs-heading" sx={{ p: { xs: 2, md: 3 } }}>
      <Typography id="runs-heading" variant="h5" component="h2" gutterBottom>
        Run history
      </Typography>
      {loading ? (
        <CircularProgress size={24} aria-label="Loading runs" />
      ) : !runs?.length ? (
        <Typography color="text.secondary">No runs yet. Use Run Now to fetch data.</Typography>
      ) : (
        <TableContainer>
          <Table size="small" aria-label="Run history">
            <TableHead>
              <TableRow>
                <TableCell>Status</TableCell>
                <TableCell>Started</TableCell>
                <TableCell sx={{ display: { xs: 'none', sm: 'table-cell' } }}>Finished</TableCell>
                <TableCell align="right">Rows</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {runs.slice(0, 20).map((run) => (
                <TableRow key={run.id}>
                  <TableCell>
                    <Chip
                      size="small"
                      color={runStatusColor(run.status)}
                      label={runStatusLabel(run.status)}
                      icon={
                        run.status === 'running' ? <CircularProgress size={12} color="inherit" /> : undefined
                      }
                      title={run.error ?? run.warning ?? undefined}
                    />
                    {run.error && (
                      <Typography
                        variant="caption"
                        color="error"
                        sx={{ display: 'block', mt: 0.5, overflowWrap: 'anywhere' }}
                      >
                        {run.error}
                      </Typography>
                    )}
                    {run.warning && (
                      <Typography
                        variant="caption"
                        color="warning.main"
                        role="note"
                        sx={{ display: 'block', mt: 0.5, overflowWrap: 'anywhere' }}
                      >
                        {run.warning}
                      </Typography>
                    )}
                  </TableCell>
                  <TableCell>{when(run.started_at)}</TableCell>
                  <TableCell sx={{ display: { xs: 'none', sm: 'table-cell' } }}>
                    {when(run.finished_at)}
                  </TableCell>
                  <TableCell align="right">
                    {run.row_count ?? 0}
                    {(run.operations?.length ?? 0) > 1 && (
                      <Box component="ul" aria-label="Rows per stream" sx={{ m: 0, p: 0, listStyle: 'none' }}>
                        {run.operations.map((outcome) => (
                          <Typography
                            key={outcome.output_table_name}
                            component="li"
                            variant="caption"
                            color={outcome.status === 'failed' ? 'error' : 'text.secondary'}
                            sx={{ display: 'block', whiteSpace: 'nowrap' }}
                          >
                            {outcome.operation_id}:{' '}
                            {outcome.status === 'failed' ? 'failed' : `${outcome.row_count} rows`}
                          </Typography>
                        ))}
                      </Box>
                    )}
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </TableContainer>
      )}
    </Paper>
  );
}
