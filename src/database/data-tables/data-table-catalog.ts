import type { Sql } from '../sql';
import { DATA_SCHEMA } from './data-table-names';

/** A column as Postgres itself has it: its name and its type's name (pg_type.typname: int8, text, ...). */
export interface TableColumn {
  name: string;
  pgType: string;
}

/**
 * The real columns of each named table in schema `data`, in table order, read from pg_catalog in
 * one query. A table that does not exist (yet) is absent from the map.
 */
export async function tableColumns(sql: Sql, tableNames: string[]): Promise<Map<string, TableColumn[]>> {
  const tables = new Map<string, TableColumn[]>();
  if (tableNames.length === 0) return tables;
  const { rows } = await sql<{ table_name: string; name: string; pg_type: string }>(
    `SELECT c.relname AS table_name, a.attname AS name, t.typname AS pg_type
       FROM pg_class c
       JOIN pg_namespace n ON n.oid = c.relnamespace
       JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped
       JOIN pg_type t ON t.oid = a.atttypid
      WHERE n.nspname = $1 AND c.relname = ANY($2::text[]) AND c.relkind = 'r'
      ORDER BY c.relname, a.attnum`,
    [DATA_SCHEMA, tableNames],
  );
  for (const row of rows) {
    const columns = tables.get(row.table_name) ?? [];
    columns.push({ name: row.name, pgType: row.pg_type });
    tables.set(row.table_name, columns);
  }
  return tables;
}

/** The columns of one table; empty when it does not exist. */
export async function columnsOf(sql: Sql, tableName: string): Promise<TableColumn[]> {
  return (await tableColumns(sql, [tableName])).get(tableName) ?? [];
}

/** The type name the grid and the API show for a Postgres type. */
export function displayType(pgType: string): string {
  switch (pgType) {
    case 'int8':
    case 'int4':
    case 'int2':
      return 'integer';
    case 'numeric':
    case 'float8':
    case 'float4':
      return 'numeric';
    case 'bool':
      return 'boolean';
    case 'date':
    case 'timestamptz':
    case 'timestamp':
      return pgType;
    case 'jsonb':
    case 'json':
      return 'jsonb';
    default:
      return 'text';
  }
}
