import { ConnectorFetchError } from './connector-fetch-error';

type Row = Record<string, unknown>;

/**
 * Google Sheets-style `values`: the first array names the fields, each later array is one record.
 * Rows shorter than the header (Sheets drops trailing empty cells) get null for the rest; a cell
 * beyond the header, or under an empty header cell, is kept as `column_<n>` (1-based), never
 * dropped. A repeated header name gets `_2`, `_3`.
 */
export function recordsFromHeaderRow(items: unknown[], label: string): Row[] {
  if (items.length === 0) return [];
  const [header, ...rows] = items;
  if (!Array.isArray(header) || rows.some((row) => !Array.isArray(row)))
    throw new ConnectorFetchError(
      `${label}: header_row needs arrays (a header row, then one array per record)`,
    );
  const names = fieldNames(header);
  return (rows as unknown[][]).map((cells) => {
    const record: Row = {};
    const width = Math.max(names.length, cells.length);
    for (let index = 0; index < width; index++) {
      const name = names[index] ?? `column_${index + 1}`;
      record[name] = cells[index] ?? null;
    }
    return record;
  });
}

function fieldNames(header: unknown[]): string[] {
  const used = new Set<string>();
  return header.map((cell, index) => {
    const base =
      cell === null || cell === undefined || String(cell).trim() === ''
        ? `column_${index + 1}`
        : String(cell);
    let name = base;
    for (let suffix = 2; used.has(name); suffix++) name = `${base}_${suffix}`;
    used.add(name);
    return name;
  });
}
