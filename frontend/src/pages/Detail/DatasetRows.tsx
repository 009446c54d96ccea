import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import type { GridFilterModel, GridPaginationModel, GridSortModel } from '@mui/x-data-grid';
import { serverFilters } from '../../features/detail/gridFilters';
import { useEffect, useState } from 'react';
import { FAILED_TO_LOAD } from '../../features/detail/detailRules';
import { useAssetRows } from '../../api/assets';
import type { DatasetColumn } from '../../features/detail/gridColumns';
import { sortParam } from '../../features/detail/gridColumns';
import { LazyDataTable } from './LazyDataTable';

const SAMPLE_ROWS = 20;

/** Without access: 'Sample Data Preview' of a few rows; preview errors are only logged, never shown. */
export function SamplePreview({ assetId }: { assetId: string }) {
  const sample = useAssetRows(assetId, { limit: SAMPLE_ROWS, offset: 0 });
  useEffect(() => {
    if (sample.error) console.error('Sample preview failed', sample.error);
  }, [sample.error]);
  return (
    <Paper
      variant="outlined"
      component="section"
      aria-labelledby="sample-heading"
      sx={{ p: { xs: 2, md: 3 } }}
    >
      <Typography id="sample-heading" variant="h5" component="h2" gutterBottom>
        Sample Data Preview
      </Typography>
      <Typography color="text.secondary" sx={{ mb: 2 }}>
        A limited preview of the first rows. The full dataset needs access: get or buy it above.
      </Typography>
      {!sample.error && (
        <LazyDataTable
          label="Sample data"
          columns={sample.data?.columns ?? []}
          rows={sample.data?.rows ?? []}
          loading={sample.isPending}
        />
      )}
    </Paper>
  );
}

function columnsOfType(columns: DatasetColumn[] | undefined, type: string): Set<string> {
  return new Set((columns ?? []).filter((column) => column.type === type).map((column) => column.name));
}

/** With access: every row, paged and sorted by the server, with the dataset's column types. */
export function FullData({ assetId, columns }: { assetId: string; columns?: DatasetColumn[] }) {
  const [pagination, setPagination] = useState<GridPaginationModel>({ page: 0, pageSize: 25 });
  const [sort, setSort] = useState<GridSortModel>([]);
  const [filter, setFilter] = useState<GridFilterModel>({ items: [] });
  const rows = useAssetRows(assetId, {
    limit: pagination.pageSize,
    offset: pagination.page * pagination.pageSize,
    sort: sortParam(sort),
    filters: serverFilters(
      filter.items,
      columnsOfType(columns, 'timestamptz'),
      columnsOfType(columns, 'timestamp'),
    ),
  });
  return (
    <Paper variant="outlined" component="section" aria-labelledby="data-heading" sx={{ p: { xs: 2, md: 3 } }}>
      <Typography id="data-heading" variant="h5" component="h2" gutterBottom>
        Data
      </Typography>
      {rows.error && filter.items.length > 0 ? (
        <Alert
          severity="warning"
          sx={{ mb: 2 }}
          action={<Button onClick={() => setFilter({ items: [] })}>Clear filter</Button>}
        >
          {rows.error.message}
        </Alert>
      ) : null}
      {rows.error && filter.items.length === 0 ? (
        <Alert severity="error">{FAILED_TO_LOAD}</Alert>
      ) : (
        <LazyDataTable
          label="Dataset rows"
          columns={columns?.length ? columns : (rows.data?.columns ?? [])}
          rows={rows.data?.rows ?? []}
          loading={rows.isFetching}
          height={560}
          server={{
            total: rows.data?.total ?? 0,
            pagination,
            onPagination: setPagination,
            sort,
            onSort: (model) => {
              setSort(model);
              setPagination({ ...pagination, page: 0 });
            },
            filter,
            onFilter: (model) => {
              setFilter(model);
              setPagination({ ...pagination, page: 0 });
            },
          }}
        />
      )}
    </Paper>
  );
}
