import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { refusalOr } from '../../../api/client';
import { type SchemaChange, useSchemaChangeAnswer } from '../../../api/liveProducts';
import { useNotify } from '../../../components/useNotify';
import { exactTime } from '../../../features/live/freshness';
import { schemaChangeRows, schemaChangeSummary } from '../../../features/products/schemaChange';

const KIND_COLORS = { Dropped: 'error', Retyped: 'warning', Added: 'success' } as const;

/**
 * The owner's decision on a refresh held back because it would drop or retype published columns:
 * accept it (subscribers are told first) or dismiss it and fix the connector.
 */
export function SchemaChangePanel({ assetId, change }: { assetId: string; change: SchemaChange }) {
  const answer = useSchemaChangeAnswer(assetId);
  const notify = useNotify();
  // Awaited rather than told through mutate's callbacks: those are dropped once this panel
  // unmounts, which the refetch after an answer does (nothing is held any more).
  const send = (choice: 'accept' | 'dismiss') =>
    answer.mutateAsync(choice).then(
      (reply) => notify(reply.message, 'success'),
      (error: unknown) => notify(refusalOr(error, 'The schema change could not be answered.'), 'error'),
    );
  return (
    // A standing decision, not an interruption: a region rather than the alert role an Alert has by default.
    <Alert severity="warning" component="section" role="region" aria-labelledby="schema-change-heading">
      <AlertTitle id="schema-change-heading" component="h2">
        Schema change held: {schemaChangeSummary(change)}
      </AlertTitle>
      <Typography variant="body2" sx={{ mb: 1.5 }}>
        A refresh on {exactTime(change.detected_at)} would change published columns, so its rows were not
        published. Accept it to publish the new shape (subscribers are told before it takes effect), or
        dismiss it and fix the connector.
      </Typography>
      <Table size="small" aria-label="Column changes" sx={{ mb: 2 }}>
        <TableHead>
          <TableRow>
            <TableCell>Column</TableCell>
            <TableCell>Change</TableCell>
            <TableCell>Type</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {schemaChangeRows(change).map((row) => (
            <TableRow key={`${row.kind}-${row.name}`}>
              <TableCell sx={{ fontWeight: 600, overflowWrap: 'anywhere' }}>{row.name}</TableCell>
              <TableCell>
                <Chip size="small" variant="outlined" color={KIND_COLORS[row.kind]} label={row.kind} />
              </TableCell>
              <TableCell sx={{ overflowWrap: 'anywhere' }}>{row.detail}</TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
      <Stack direction="row" spacing={1} useFlexGap sx={{ flexWrap: 'wrap' }}>
        <Button
          variant="contained"
          color="warning"
          disabled={answer.isPending}
          onClick={() => send('accept')}
        >
          Accept change
        </Button>
        <Button
          variant="outlined"
          color="inherit"
          disabled={answer.isPending}
          onClick={() => send('dismiss')}
        >
          Dismiss
        </Button>
      </Stack>
    </Alert>
  );
}
