import Box from '@mui/material/Box';
import {
  DataGrid,
  GridColDef,
  GridFilterModel,
  GridPaginationModel,
  GridRenderCellParams,
  GridSortModel,
  getGridBooleanOperators,
  getGridDateOperators,
  getGridNumericOperators,
  getGridStringOperators,
} from '@mui/x-data-grid';
import { SERVER_FILTER_OPERATORS } from '../../features/detail/gridFilters';
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
    /** Server filtering: the grid offers only the operators the server applies. */
    filter?: GridFilterModel;
    onFilter?: (model: GridFilterModel) => void;
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
        // The grid knows no date-time without offset: its text is shown as a string.
        type: spec.type === 'wallClock' ? 'string' : spec.type,
        ...(server?.onFilter && { filterOperators: serverOperators(spec.type) }),
        ...(spec.type === 'string' && {
          renderCell: (params: GridRenderCellParams) =>
            params.value === '' ? <EmptyString /> : params.formattedValue,
        }),
        ...((spec.type === 'number' || spec.type === 'date') && {
          valueFormatter: (value: unknown) =>
            cellText(value, { type: spec.type, plainDigits }) ?? String(value),
        }),
      })),
    [specs, server?.onFilter],
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
        {...(server?.onFilter && {
          filterMode: 'server' as const,
          filterModel: server.filter,
          onFilterModelChange: server.onFilter,
        })}
      />
    </Box>
  );
}

/** An empty string is a value, unlike a missing one (a blank cell): shown as "" so the two differ. */
function EmptyString() {
  return (
    <Box component="span" title="Empty text" aria-label="empty text" sx={{ color: 'text.secondary' }}>
      &quot;&quot;
    </Box>
  );
}

/** The grid's operators for a column type, narrowed to those the server's row filters know. */
function serverOperators(type: string | undefined) {
  const all =
    type === 'number'
      ? getGridNumericOperators()
      : type === 'date' || type === 'dateTime' || type === 'wallClock'
        ? getGridDateOperators(type !== 'date')
        : type === 'boolean'
          ? getGridBooleanOperators()
          : getGridStringOperators();
  return all.filter((operator) => SERVER_FILTER_OPERATORS.includes(operator.value));
}
