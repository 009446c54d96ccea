import type { RunOutcome, SchemaChange } from '../../api/liveProducts';

/** How a held schema change and a live dataset's run outcomes read. */

export type ColumnChangeKind = 'Dropped' | 'Retyped' | 'Added';

export interface SchemaChangeRow {
  name: string;
  kind: ColumnChangeKind;
  /** The type, or "integer → text" for a retyped column. */
  detail: string;
}

/** One row per changed column: what breaks subscribers' use first (dropped, retyped), then what is new. */
export function schemaChangeRows(change: SchemaChange): SchemaChangeRow[] {
  return [
    ...change.dropped.map((column) => ({ name: column.name, kind: 'Dropped' as const, detail: column.type })),
    ...change.retyped.map((column) => ({
      name: column.name,
      kind: 'Retyped' as const,
      detail: `${column.from} → ${column.to}`,
    })),
    ...change.added.map((column) => ({ name: column.name, kind: 'Added' as const, detail: column.type })),
  ];
}

/** "2 columns dropped, 1 retyped, 1 added". */
export function schemaChangeSummary(change: SchemaChange): string {
  const parts: string[] = [];
  const dropped = change.dropped.length;
  const retyped = change.retyped.length;
  const added = change.added.length;
  const columns = (count: number) => `${count} ${count === 1 ? 'column' : 'columns'}`;
  if (dropped) parts.push(`${columns(dropped)} dropped`);
  if (retyped) parts.push(parts.length ? `${retyped} retyped` : `${columns(retyped)} retyped`);
  if (added) parts.push(parts.length ? `${added} added` : `${columns(added)} added`);
  return parts.join(', ');
}

const OUTCOMES: Record<RunOutcome, { label: string; color: 'success' | 'default' | 'error' | 'warning' }> = {
  updated: { label: 'Updated', color: 'success' },
  unchanged: { label: 'No change', color: 'default' },
  failed: { label: 'Failed', color: 'error' },
  schema_change: { label: 'Schema change', color: 'warning' },
};

export function runOutcomeLabel(outcome: RunOutcome): string {
  return OUTCOMES[outcome]?.label ?? outcome;
}

export function runOutcomeColor(outcome: RunOutcome): 'success' | 'default' | 'error' | 'warning' {
  return OUTCOMES[outcome]?.color ?? 'default';
}
