import { ROW_ID_COLUMN } from '../database/data-tables/data-table-names';
import type { StreamSource } from '../stream/stream-source';

/** The schema namespace every entity type lives in. */
export const ODATA_NAMESPACE = 'DataMarketplace';
/** Key of a table without the hidden row id (connector tables): the row's position in the answer. */
export const ROW_NUMBER_KEY = '_row_number';

/** One property of an entity type and the column it reads. */
export interface EntityProperty {
  /** OData name (a simple identifier). */
  name: string;
  /** SQL column name; undefined for the computed row-number key. */
  column?: string;
  /** pg_type.typname of the column. */
  pgType: string;
  edmType: string;
}

/** A table the key's owner may read, as an OData entity set. */
export interface EntitySet {
  name: string;
  source: StreamSource;
  /** The key property first, then the columns. */
  properties: EntityProperty[];
  key: EntityProperty;
}

const EDM_TYPES: Record<string, string> = {
  int2: 'Edm.Int16',
  int4: 'Edm.Int32',
  int8: 'Edm.Int64',
  numeric: 'Edm.Decimal',
  float4: 'Edm.Single',
  float8: 'Edm.Double',
  bool: 'Edm.Boolean',
  date: 'Edm.Date',
  // A time without zone is read as UTC (every stream session runs in UTC).
  timestamp: 'Edm.DateTimeOffset',
  timestamptz: 'Edm.DateTimeOffset',
  time: 'Edm.TimeOfDay',
  uuid: 'Edm.Guid',
};

/** The EDM type a Postgres type is published as; anything without its own EDM type is text. */
export function edmType(pgType: string): string {
  return EDM_TYPES[pgType] ?? 'Edm.String';
}

const SIMPLE_IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]{0,62}$/;
const ENTITY_SET_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,127}$/;
const ENTITY_SET_ID = /_(instance_|table_)?([0-9a-f]{32})$/;
/** The name part before the id, per kind; the stream reference prefix it maps back to. */
const KIND_INFIX: Record<StreamSource['kind'], string> = {
  asset: '',
  instance: 'instance_',
  table: 'table_',
};
const REFERENCE_PREFIX: Record<string, string> = { '': '', instance_: 'instance-', table_: 'table-' };

/** A readable identifier from free text: letters, digits and underscores, not starting with a digit. */
function identifierFrom(text: string, fallback: string, maxLength: number): string {
  const slug = text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^A-Za-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '')
    .slice(0, maxLength)
    .replace(/_+$/, '');
  if (!slug) return fallback;
  return /^[0-9]/.test(slug) ? `_${slug}` : slug;
}

/**
 * The name an entity set had before readable names: its kind and id (`Dataset_<hex>`,
 * `Connector_instance_<hex>`, `Connector_table_<hex>`). Saved queries still use it, so it still
 * resolves (see sourceReferenceOf), though documents list the readable name.
 */
export function formerEntitySetName(source: Pick<StreamSource, 'kind' | 'id'>): string {
  const hex = source.id.replace(/-/g, '').toLowerCase();
  return `${source.kind === 'asset' ? 'Dataset' : 'Connector'}_${KIND_INFIX[source.kind]}${hex}`;
}

/**
 * The stream reference (`<id>`, `instance-<id>` or `table-<id>`) a former entity set name points
 * to; null when it names nothing. Even older names (a title before the id) resolve too: only the
 * id decides.
 */
export function sourceReferenceOf(entitySet: string): string | null {
  const match = ENTITY_SET_ID.exec(entitySet);
  if (!match || !ENTITY_SET_NAME.test(entitySet)) return null;
  const hex = match[2];
  const id = `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
  return `${REFERENCE_PREFIX[match[1] ?? '']}${id}`;
}

/**
 * The entity set of a readable source, named by the table's readable name (a BI tool's saved
 * query picks its table by this name, so it never changes; the title is the service document's
 * `title`): every column as a property named by its SQL name (made a
 * valid identifier where it is not one), keyed by the hidden row id or else the row number.
 */
export function toEntitySet(source: StreamSource): EntitySet {
  const key: EntityProperty = source.hasRowId
    ? { name: ROW_ID_COLUMN, column: ROW_ID_COLUMN, pgType: 'int8', edmType: 'Edm.Int64' }
    : { name: ROW_NUMBER_KEY, pgType: 'int8', edmType: 'Edm.Int64' };
  const used = new Set([key.name]);
  const properties = source.columns.map((column) => {
    const base = SIMPLE_IDENTIFIER.test(column.name)
      ? column.name
      : identifierFrom(column.name, 'column', 50);
    let name = base;
    for (let suffix = 2; used.has(name); suffix++) name = `${base}_${suffix}`;
    used.add(name);
    return { name, column: column.name, pgType: column.pgType, edmType: edmType(column.pgType) };
  });
  return { name: source.readableName, source, properties: [key, ...properties], key };
}
