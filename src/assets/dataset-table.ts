/** Dataset and connector tables live in this Postgres schema. */
export const DATA_SCHEMA = 'data';

/** Hidden per-row id of dataset tables: file order, stable paging. Never part of `columns`. */
export const ROW_ID_COLUMN = '_row_id';

/** Quotes an SQL identifier (names come from our own sanitiser, quoting is the second fence). */
export function quoteIdentifier(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}

/** `data."<table>"`, ready to put into SQL. */
export function datasetTable(tableName: string): string {
  return `${DATA_SCHEMA}.${quoteIdentifier(tableName)}`;
}
