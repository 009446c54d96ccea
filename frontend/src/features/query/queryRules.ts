/** The SQL workspace's rules, without React: links, completion, summaries and error positions. */

/** Rows the screen asks for; downloads fetch the whole result. */
export const SCREEN_ROW_LIMIT = 10_000;

const PLAIN_IDENTIFIER = /^[a-z_][a-z0-9_]*$/;

/** A table name as SQL needs it: plain names as they are, anything else in double quotes. */
export function sqlName(name: string): string {
  return PLAIN_IDENTIFIER.test(name) ? name : `"${name.replaceAll('"', '""')}"`;
}

/** What the Query button of a held table opens with. */
export function tableQuery(name: string): string {
  return `SELECT * FROM ${sqlName(name)} LIMIT 100`;
}

/** The workspace, opened on one table. */
export function queryPagePath(tableName: string): string {
  return `/query?table=${encodeURIComponent(tableName)}`;
}

/** The caller's tables as @codemirror/lang-sql's completion schema: table name → column names. */
export function completionSchema(
  tables: ReadonlyArray<{ name: string; columns: ReadonlyArray<{ name: string }> }>,
): Record<string, string[]> {
  return Object.fromEntries(tables.map((table) => [table.name, table.columns.map((column) => column.name)]));
}

/** "3 rows in 12 ms" under the grid. */
export function resultSummary(rowCount: number, elapsedMs: number): string {
  const rows = `${rowCount.toLocaleString('en')} ${rowCount === 1 ? 'row' : 'rows'}`;
  const time = elapsedMs < 1000 ? `${elapsedMs} ms` : `${(elapsedMs / 1000).toFixed(1)} s`;
  return `${rows} in ${time}`;
}

/** Shown when the screen's limit cut the result. */
export function truncationNotice(rowCount: number): string {
  return `Showing the first ${rowCount.toLocaleString('en')} rows. Download the whole result as CSV, JSON, Parquet or Excel.`;
}

/**
 * Where PostgreSQL's error position (1-based, in characters of the SQL) falls, as line and column
 * for a reader of the editor.
 */
export function errorLocation(sql: string, position: number): { line: number; column: number } {
  const before = Array.from(sql)
    .slice(0, Math.max(0, position - 1))
    .join('');
  const lines = before.split('\n');
  return { line: lines.length, column: Array.from(lines[lines.length - 1]).length + 1 };
}

/** The error text beside the editor: the server's message, and where it points when it says. */
export function errorText(sql: string, message: string, position?: number): string {
  if (!position) return message;
  const { line, column } = errorLocation(sql, position);
  return `${message} (line ${line}, column ${column})`;
}
