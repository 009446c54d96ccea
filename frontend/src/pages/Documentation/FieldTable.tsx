import Paper from '@mui/material/Paper';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import { Code } from './CodeBlock';

// Three columns do not fit a phone: each row becomes a small stacked block there.
const stackOnPhones = {
  '@media (max-width: 599.95px)': {
    '& thead': { display: 'none' },
    '& tr': { display: 'block', py: 1, borderBottom: 1, borderColor: 'divider' },
    '& tr:last-of-type': { borderBottom: 0 },
    '& td, & th': { display: 'block', border: 0, py: 0.25, whiteSpace: 'normal' },
  },
};

export interface FieldRow {
  name: string;
  type: string;
  description: string;
}

/** A reference table: one row per key with its value type and meaning. */
export function FieldTable({
  rows,
  caption,
  firstColumn = 'Field',
}: {
  rows: FieldRow[];
  caption: string;
  firstColumn?: string;
}) {
  return (
    <TableContainer component={Paper} variant="outlined" sx={{ my: 2 }}>
      <Table size="small" aria-label={caption} sx={stackOnPhones}>
        <TableHead>
          <TableRow>
            <TableCell component="th" scope="col">
              {firstColumn}
            </TableCell>
            <TableCell component="th" scope="col">
              Type
            </TableCell>
            <TableCell component="th" scope="col">
              Description
            </TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {rows.map((row) => (
            <TableRow key={row.name}>
              <TableCell component="th" scope="row" sx={{ whiteSpace: 'nowrap', verticalAlign: 'top' }}>
                <Code>{row.name}</Code>
              </TableCell>
              <TableCell sx={{ whiteSpace: 'nowrap', verticalAlign: 'top', color: 'text.secondary' }}>
                {row.type}
              </TableCell>
              <TableCell sx={{ verticalAlign: 'top' }}>{row.description}</TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </TableContainer>
  );
}
