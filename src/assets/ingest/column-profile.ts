import { dataTable, quoteIdentifier } from '../../database/data-tables/data-table-names';
import type { Sql } from '../../database/sql';
import type { AssetColumn, ColumnProfile } from '../entities/asset.entity';

/** How many of the most frequent values a text column's profile keeps. */
export const TOP_VALUES = 5;
/** Longest value text a profile keeps (a long free-text cell would only bloat the catalogue row). */
const MAX_VALUE_CHARS = 80;

const RANGED: ReadonlySet<AssetColumn['type']> = new Set([
  'integer',
  'numeric',
  'date',
  'timestamp',
  'timestamptz',
]);
const COUNTED: ReadonlySet<AssetColumn['type']> = new Set(['text', 'boolean']);

/**
 * The profile of every column of a loaded table: share of NULLs (and of empty strings in text),
 * distinct count, min/max
 * for numbers and dates, the most frequent values for text and booleans. One scan for the
 * counts and ranges of all columns, one grouped query per text column. Runs inside the load's
 * transaction, so the profile always describes the rows that commit with it.
 */
export async function profileTable(
  sql: Sql,
  tableName: string,
  columns: AssetColumn[],
): Promise<ColumnProfile[]> {
  if (columns.length === 0) return [];
  const table = dataTable(tableName);
  const parts = columns.flatMap((column, index) => {
    const name = quoteIdentifier(column.name);
    // jsonb has no ordering operators for distinct; its text form counts the same values.
    const distinctOf = column.type === 'jsonb' ? `${name}::text` : name;
    const selects = [
      `count(${name}) AS c${index}_filled`,
      `count(DISTINCT ${distinctOf}) AS c${index}_distinct`,
    ];
    // An empty string is a value, not a missing one: counted apart from the NULLs.
    if (column.type === 'text') selects.push(`count(*) FILTER (WHERE ${name} = '') AS c${index}_empty`);
    if (RANGED.has(column.type)) {
      // JSON renders numbers as numbers and dates in ISO form, exactly as the grid shows them.
      selects.push(`to_json(min(${name})) AS c${index}_min`, `to_json(max(${name})) AS c${index}_max`);
    }
    return selects;
  });
  const { rows } = await sql<Record<string, unknown>>(
    `SELECT count(*) AS total, ${parts.join(', ')} FROM ${table}`,
  );
  const summary = rows[0];
  const total = Number(summary.total);
  const profiles: ColumnProfile[] = [];
  for (const [index, column] of columns.entries()) {
    const filled = Number(summary[`c${index}_filled`]);
    const profile: ColumnProfile = {
      name: column.name,
      nullShare: total === 0 ? 0 : (total - filled) / total,
      distinctCount: Number(summary[`c${index}_distinct`]),
    };
    if (column.type === 'text') {
      profile.emptyStringShare = total === 0 ? 0 : Number(summary[`c${index}_empty`]) / total;
    }
    if (RANGED.has(column.type)) {
      profile.min = (summary[`c${index}_min`] as number | string | null) ?? null;
      profile.max = (summary[`c${index}_max`] as number | string | null) ?? null;
    }
    if (COUNTED.has(column.type)) profile.topValues = await topValues(sql, table, column.name);
    profiles.push(profile);
  }
  return profiles;
}

async function topValues(sql: Sql, table: string, columnName: string): Promise<ColumnProfile['topValues']> {
  const name = quoteIdentifier(columnName);
  const { rows } = await sql<{ value: string; count: string }>(
    `SELECT left(${name}::text, ${MAX_VALUE_CHARS}) AS value, count(*) AS count FROM ${table}
      WHERE ${name} IS NOT NULL GROUP BY 1 ORDER BY count(*) DESC, 1 LIMIT ${TOP_VALUES}`,
  );
  return rows.map((row) => ({ value: row.value, count: Number(row.count) }));
}
