/** Editing the custom request headers as rows of key/value, turned into the map the server stores. */

export interface HeaderRow {
  id: number;
  key: string;
  value: string;
}

export function headersToRows(headers: Record<string, string> | null | undefined): HeaderRow[] {
  return Object.entries(headers ?? {}).map(([key, value], index) => ({
    id: index + 1,
    key,
    value: String(value),
  }));
}

export function addHeaderRow(rows: HeaderRow[]): HeaderRow[] {
  const nextId = rows.reduce((highest, row) => Math.max(highest, row.id), 0) + 1;
  return [...rows, { id: nextId, key: '', value: '' }];
}

export function removeHeaderRow(rows: HeaderRow[], id: number): HeaderRow[] {
  return rows.filter((row) => row.id !== id);
}

export function updateHeaderRow(
  rows: HeaderRow[],
  id: number,
  change: Partial<Omit<HeaderRow, 'id'>>,
): HeaderRow[] {
  return rows.map((row) => (row.id === id ? { ...row, ...change } : row));
}

/** Rows without a name are dropped; names are trimmed; a later row with the same name wins. */
export function rowsToHeaders(rows: HeaderRow[]): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const row of rows) {
    const key = row.key.trim();
    if (key) headers[key] = row.value;
  }
  return headers;
}
