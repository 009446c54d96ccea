import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import type { TestReadResult } from '../api/connectors';
import { LazyDataTable } from '../pages/Detail/LazyDataTable';

/** What a test read saw: its error or warnings, the requests, the columns a run would create, the records. */
export function TestReadResultView({ result }: { result: TestReadResult }) {
  const columns = result.columns.map((column) => column.field);
  return (
    <Paper
      variant="outlined"
      component="section"
      aria-labelledby="test-read-heading"
      sx={{ p: { xs: 2, md: 3 } }}
    >
      <Typography id="test-read-heading" variant="h6" component="h3" gutterBottom>
        Test read: {result.records.length} records from {result.pages} pages (nothing was written)
      </Typography>
      <Stack spacing={2}>
        {result.error && (
          <Alert severity="error" role="alert">
            {result.error}
          </Alert>
        )}
        {result.warnings.map((warning) => (
          <Alert key={warning} severity="warning">
            {warning}
          </Alert>
        ))}
        <div>
          <Typography variant="subtitle2" component="h4" gutterBottom>
            Requests
          </Typography>
          {/* On a phone the table scrolls sideways rather than squeezing the URL into a column of letters. */}
          <Box sx={{ overflowX: 'auto' }}>
            <Table size="small" aria-label="Requests made">
              <TableHead>
                <TableRow>
                  <TableCell>Method</TableCell>
                  <TableCell>URL</TableCell>
                  <TableCell align="right">Status</TableCell>
                  <TableCell align="right">Time</TableCell>
                </TableRow>
              </TableHead>
              <TableBody>
                {result.requests.map((request, index) => (
                  <TableRow key={index}>
                    <TableCell>{request.method}</TableCell>
                    <TableCell
                      sx={{ wordBreak: 'break-all', fontFamily: 'monospace', fontSize: 12, minWidth: 240 }}
                    >
                      {request.url}
                    </TableCell>
                    <TableCell align="right">{request.status ?? 'no answer'}</TableCell>
                    <TableCell align="right">{request.ms} ms</TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          </Box>
        </div>
        <div>
          <Typography variant="subtitle2" component="h4" gutterBottom>
            Columns a run would create
          </Typography>
          {result.columns.length === 0 ? (
            <Typography color="text.secondary">No records, so no columns.</Typography>
          ) : (
            <Stack
              direction="row"
              useFlexGap
              spacing={1}
              sx={{ flexWrap: 'wrap' }}
              aria-label="Detected columns"
            >
              {result.columns.map((column) => (
                <Chip key={column.name} size="small" label={`${column.name}: ${column.type}`} />
              ))}
            </Stack>
          )}
        </div>
        {result.records.length > 0 && (
          <LazyDataTable label="Test read records" columns={columns} rows={result.records} height={360} />
        )}
      </Stack>
    </Paper>
  );
}
