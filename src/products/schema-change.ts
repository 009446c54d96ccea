import type { AssetColumn } from '../assets/entities/asset.entity';

/** A column as published or as a run left it: its name and its type as the API shows it. */
export interface PublishedColumn {
  name: string;
  type: AssetColumn['type'];
}

/** How a run's table differs from the published columns. */
export interface SchemaChange {
  added: PublishedColumn[];
  dropped: PublishedColumn[];
  retyped: Array<{ name: string; from: AssetColumn['type']; to: AssetColumn['type'] }>;
}

/** What `next` changes of `published`, by column name (the order of columns is no change). */
export function schemaChange(published: PublishedColumn[], next: PublishedColumn[]): SchemaChange {
  const nextByName = new Map(next.map((column) => [column.name, column]));
  const publishedNames = new Set(published.map((column) => column.name));
  return {
    added: next
      .filter((column) => !publishedNames.has(column.name))
      .map(({ name, type }) => ({ name, type })),
    dropped: published
      .filter((column) => !nextByName.has(column.name))
      .map(({ name, type }) => ({ name, type })),
    retyped: published.flatMap((column) => {
      const after = nextByName.get(column.name);
      return after && after.type !== column.type
        ? [{ name: column.name, from: column.type, to: after.type }]
        : [];
    }),
  };
}

/** A change subscribers must be told of before it takes effect: a published column goes or changes type. */
export function breaksPublishedColumns(change: SchemaChange): boolean {
  return change.dropped.length > 0 || change.retyped.length > 0;
}

/** The change in one line, for notices: "dropped: a; retyped: b (integer → text); added: c". */
export function describeSchemaChange(change: SchemaChange): string {
  const parts: string[] = [];
  if (change.dropped.length > 0)
    parts.push(`dropped: ${change.dropped.map((column) => column.name).join(', ')}`);
  if (change.retyped.length > 0)
    parts.push(
      `retyped: ${change.retyped.map((column) => `${column.name} (${column.from} → ${column.to})`).join(', ')}`,
    );
  if (change.added.length > 0) parts.push(`added: ${change.added.map((column) => column.name).join(', ')}`);
  return parts.join('; ');
}
