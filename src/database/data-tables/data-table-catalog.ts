import type { Sql } from '../sql';
import { DATA_SCHEMA, WRITTEN_TEXT_SUFFIX } from './data-table-names';

/** A column as Postgres itself has it: its name and its type's name (pg_type.typname: int8, text, ...). */
export interface TableColumn {
  name: string;
  pgType: string;
}

/**
 * SQL for the real columns of the table named by `tableName` (an SQL expression) in schema `data`,
 * as a JSON array of TableColumn in table order; NULL when the table does not exist (yet). For
 * statements that read rows naming tables together with those tables' columns. The columns
 * keeping timestamps' text as fetched are left out unless `withWrittenText` (the writer's view).
 */
export function tableColumnsJson(tableName: string, withWrittenText = false): string {
  const written = withWrittenText
    ? ''
    : ` AND right(a.attname, ${WRITTEN_TEXT_SUFFIX.length}) <> '${WRITTEN_TEXT_SUFFIX}'`;
  return `(SELECT json_agg(json_build_object('name', a.attname, 'pgType', t.typname) ORDER BY a.attnum)
       FROM pg_class c
       JOIN pg_namespace n ON n.oid = c.relnamespace
       JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped${written}
       JOIN pg_type t ON t.oid = a.atttypid
      WHERE n.nspname = '${DATA_SCHEMA}' AND c.relname = ${tableName} AND c.relkind = 'r')`;
}

/** The real columns of each named table, in one query; a table that does not exist (yet) is absent. */
export async function tableColumns(
  sql: Sql,
  tableNames: string[],
  withWrittenText = false,
): Promise<Map<string, TableColumn[]>> {
  const tables = new Map<string, TableColumn[]>();
  if (tableNames.length === 0) return tables;
  const { rows } = await sql<{ table_name: string; columns: TableColumn[] | null }>(
    `SELECT table_name, ${tableColumnsJson('table_name', withWrittenText)} AS columns FROM unnest($1::text[]) AS table_name`,
    [tableNames],
  );
  for (const row of rows) if (row.columns) tables.set(row.table_name, row.columns);
  return tables;
}

/** The columns of one table; empty when it does not exist. */
export async function columnsOf(
  sql: Sql,
  tableName: string,
  withWrittenText = false,
): Promise<TableColumn[]> {
  return (await tableColumns(sql, [tableName], withWrittenText)).get(tableName) ?? [];
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
