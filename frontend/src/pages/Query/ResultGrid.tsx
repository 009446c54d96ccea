import Box from '@mui/material/Box';
import { DataGrid, GridColDef } from '@mui/x-data-grid';
import { useMemo } from 'react';
import type { QueryResult } from '../../api/query';
import { isNumericColumn } from '../../features/query/chartData';

/** Up to this many rows the grid is as tall as its rows; longer results scroll inside a fixed height. */
const ROWS_WITHOUT_SCROLL = 12;

/** A cell as text: JSON values (objects, arrays) written out, NULL left empty. */
function cellValue(value: unknown): unknown {
  return value !== null && typeof value === 'object' ? JSON.stringify(value) : value;
}

/** The rows of a result in the MUI X DataGrid, 100 to a page; columns keyed by position (names may repeat). */
export function ResultGrid({ result }: { result: QueryResult }) {
  const columns: GridColDef[] = useMemo(
    () =>
      result.columns.map((column, index) => ({
        field: `c${index}`,
        headerName: column.name,
        description: `${column.name} (${column.type})`,
        minWidth: 120,
        flex: 1,
        type: isNumericColumn(column) ? 'number' : 'string',
      })),
    [result.columns],
  );
  const rows = useMemo(
    () =>
      result.rows.map((row, rowIndex) => {
        const entry: Record<string, unknown> = { __rowId: rowIndex };
        row.forEach((value, index) => {
          entry[`c${index}`] = cellValue(value);
        });
        return entry;
      }),
    [result.rows],
  );
  return (
    <Box sx={{ height: rows.length > ROWS_WITHOUT_SCROLL ? 480 : undefined, width: '100%' }}>
      <DataGrid
        autoHeight={rows.length <= ROWS_WITHOUT_SCROLL}
        label="Query result"
        columns={columns}
        rows={rows}
        getRowId={(row) => row.__rowId as number}
        density="compact"
        disableRowSelectionOnClick
        pageSizeOptions={[25, 50, 100]}
        initialState={{ pagination: { paginationModel: { pageSize: 100, page: 0 } } }}
      />
    </Box>
  );
}
