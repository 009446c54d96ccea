import Skeleton from '@mui/material/Skeleton';
import { lazy, Suspense } from 'react';
import type { SchemaFormProps } from './SchemaForm';

// react-jsonschema-form and its validator are large; they load with the first setup screen only.
const SchemaForm = lazy(() => import('./SchemaForm').then((module) => ({ default: module.SchemaForm })));

export function LazySchemaForm(props: SchemaFormProps) {
  return (
    <Suspense fallback={<Skeleton variant="rounded" height={160} aria-label="Loading form" />}>
      <SchemaForm {...props} />
    </Suspense>
  );
}
