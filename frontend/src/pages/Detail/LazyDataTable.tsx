import Skeleton from '@mui/material/Skeleton';
import { lazy, Suspense } from 'react';
import type { DataTableProps } from './DataTable';

// The grid is heavy; it loads only when a screen shows rows.
const DataTable = lazy(() => import('./DataTable').then((module) => ({ default: module.DataTable })));

export function LazyDataTable(props: DataTableProps) {
  return (
    <Suspense
      fallback={<Skeleton variant="rounded" height={props.height ?? 320} aria-label="Loading table" />}
    >
      <DataTable {...props} />
    </Suspense>
  );
}
