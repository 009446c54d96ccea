import Box from '@mui/material/Box';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import type { UploadPreview } from '../../api/assets';
import {
  COLUMN_TYPES,
  ColumnType,
  CsvDialect,
  DIALECT_CHOICES,
  DIALECT_LABELS,
} from '../../features/upload/csvDialect';

/** Rows of the preview shown under the column types. */
const SHOWN_ROWS = 5;

interface CsvPreviewStepProps {
  preview: UploadPreview;
  types: ColumnType[];
  onDialect: (change: Partial<CsvDialect>) => void;
  onType: (index: number, type: ColumnType) => void;
  disabled: boolean;
}

/**
 * The preview step of a CSV upload: how the file was read (each setting can be changed, which
 * reads the start of the file again) and each column's type over the first rows as written.
 * Native selects: short lists that work the same with keyboard, touch and assistive technology.
 */
export function CsvPreviewStep({ preview, types, onDialect, onType, disabled }: CsvPreviewStepProps) {
  const settings = Object.keys(DIALECT_CHOICES) as Array<keyof CsvDialect>;
  return (
    <Stack spacing={2} component="section" aria-label="File preview">
      <Typography variant="subtitle1">How the file is read</Typography>
      <Stack direction="row" spacing={2} useFlexGap sx={{ flexWrap: 'wrap' }}>
        {settings.map((setting) => (
          <TextField
            key={setting}
            select
            size="small"
            sx={{ minWidth: 180 }}
            id={`csv-${setting}`}
            label={DIALECT_LABELS[setting]}
            slotProps={{ select: { native: true } }}
            value={preview.dialect[setting]}
            disabled={disabled}
            onChange={(event) => onDialect({ [setting]: event.target.value })}
          >
            {DIALECT_CHOICES[setting].map((choice) => (
              <option key={choice.label} value={choice.value}>
                {choice.label}
              </option>
            ))}
          </TextField>
        ))}
      </Stack>
      <Box sx={{ overflowX: 'auto' }}>
        <Table size="small" aria-label="First rows">
          <TableHead>
            <TableRow>
              {preview.columns.map((column, index) => (
                <TableCell key={column.name} sx={{ verticalAlign: 'bottom' }}>
                  <Typography variant="body2" sx={{ fontWeight: 'bold' }}>
                    {column.label}
                  </Typography>
                  <TextField
                    select
                    size="small"
                    variant="standard"
                    value={types[index] ?? column.type}
                    disabled={disabled}
                    slotProps={{
                      select: { native: true },
                      htmlInput: { 'aria-label': `Type of ${column.label}` },
                    }}
                    onChange={(event) => onType(index, event.target.value as ColumnType)}
                  >
                    {COLUMN_TYPES.map((type) => (
                      <option key={type} value={type}>
                        {type}
                      </option>
                    ))}
                  </TextField>
                </TableCell>
              ))}
            </TableRow>
          </TableHead>
          <TableBody>
            {preview.rows.slice(0, SHOWN_ROWS).map((row, rowIndex) => (
              <TableRow key={rowIndex}>
                {preview.columns.map((column, index) => (
                  <TableCell key={column.name}>{row[index] ?? ''}</TableCell>
                ))}
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </Box>
    </Stack>
  );
}
