/** One column of a streamed table: its SQL name, the label users know it by, and its Postgres type name. */
export interface SourceColumn {
  name: string;
  label: string;
  /** pg_type.typname, e.g. int4, numeric, bool, date, timestamptz, jsonb, text. */
  pgType: string;
}

/** A table the key's owner may read: a dataset or one of their connector instance outputs. */
export interface StreamSource {
  /** `table`: the table of a further operation of a connector instance (id = its table id). */
  kind: 'asset' | 'instance' | 'table';
  id: string;
  title: string;
  /** The table's one readable name (readable-name.ts): OData entity set, stream link, file name. */
  readableName: string;
  /** Table name inside the `data` schema. */
  tableName: string;
  /** Empty when the table does not exist (yet), e.g. a connector instance that never ran. */
  columns: SourceColumn[];
  /** The table has the hidden `_row_id` (uploaded datasets): a stable key in file order. */
  hasRowId: boolean;
}

/**
 * `ndjson`: JSON Lines, one object per line, for tools and scripts that read records one by one.
 * `parquet` and `xlsx`: typed files (src/formats/writers), for one source at a time.
 */
export type StreamFormat = 'json' | 'ndjson' | 'csv' | TypedFormat;
export type TypedFormat = 'parquet' | 'xlsx';
export const STREAM_FORMATS: StreamFormat[] = ['json', 'ndjson', 'csv', 'parquet', 'xlsx'];

export function isTypedFormat(format: StreamFormat): format is TypedFormat {
  return format === 'parquet' || format === 'xlsx';
}

export interface StreamPage {
  /** Undefined means every row. */
  limit?: number;
  offset: number;
}
