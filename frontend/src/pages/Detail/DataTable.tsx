import Box from '@mui/material/Box';
import { DataGrid, GridColDef, GridPaginationModel, GridSortModel } from '@mui/x-data-grid';
import { useMemo } from 'react';
import { cellText, DatasetColumn, gridColumns, gridRows } from '../../features/detail/gridColumns';

export interface DataTableProps {
  label: string;
  columns: Array<DatasetColumn | string>;
  rows: Array<Record<string, unknown>>;
  loading?: boolean;
  /** Server paging and sorting: the grid shows `total` rows and asks for each page. */
  server?: {
    total: number;
    pagination: GridPaginationModel;
    onPagination: (model: GridPaginationModel) => void;
    sort: GridSortModel;
    onSort: (model: GridSortModel) => void;
  };
  /** Fixed height with a scrolling body; without it the grid grows with its (few) rows. */
  height?: number;
}

/** MUI X DataGrid over typed dataset columns. Loaded in its own chunk (see LazyDataTable). */
export function DataTable({ label, columns, rows, loading, server, height }: DataTableProps) {
  const specs = useMemo(() => gridColumns(columns), [columns]);
  const gridColumnDefs: GridColDef[] = useMemo(
    () =>
      specs.map(({ plainDigits, ...spec }) => ({
        ...spec,
        ...((spec.type === 'number' || spec.type === 'date') && {
          valueFormatter: (value: unknown) =>
            cellText(value, { type: spec.type, plainDigits }) ?? String(value),
        }),
      })),
    [specs],
  );
  const offset = server ? server.pagination.page * server.pagination.pageSize : 0;
  const gridData = useMemo(() => gridRows(rows, specs, offset), [rows, specs, offset]);
  return (
    <Box sx={{ height, width: '100%' }}>
      <DataGrid
        autoHeight={height === undefined}
        label={label}
        columns={gridColumnDefs}
        rows={gridData}
        getRowId={(row) => row.__rowId as number}
        loading={loading}
        density="compact"
        disableRowSelectionOnClick
        pageSizeOptions={server ? [25, 50, 100] : [10, 25, 100]}
        initialState={server ? undefined : { pagination: { paginationModel: { pageSize: 25, page: 0 } } }}
        {...(server && {
          paginationMode: 'server' as const,
          sortingMode: 'server' as const,
          rowCount: server.total,
          paginationModel: server.pagination,
          onPaginationModelChange: server.onPagination,
          sortModel: server.sort,
          onSortModelChange: server.onSort,
        })}
      />
    </Box>
  );
}
