import { isLosslessNumber } from 'lossless-json';
import {
  FETCHED_AT_COLUMN,
  RUN_ID_COLUMN,
  writtenTextColumn,
} from '../../database/data-tables/data-table-names';
import type { ColumnChange } from './column-changes';
import { ColumnType, kindOf, legacyColumnName, safeColumnName, widen } from './column-types';

/** The records of a run lack a primary_key field the spec declares. */
export class MissingKeyError extends Error {}

/** A record key's column: its name in the table and the type its values need so far. */
export interface ColumnState {
  name: string;
  type: ColumnType | null;
}

/** A column the run's COPY fills: the record key it reads and the type it writes. */
export interface CopyColumn {
  key: string;
  name: string;
  type: ColumnType;
}

/** Iteration values ride on records under this prefix, apart from the records' own keys. */
const ITERATION_PREFIX = '\u0000iteration:';

/**
 * The columns one run's records make: top-level keys become columns (named once, in first-seen
 * order) whose types widen as values disagree; nested values are jsonb.
 */
export class RunColumns {
  /** Record key -> column, in first-seen order. */
  readonly byKey = new Map<string, ColumnState>();
  private readonly usedNames = new Set<string>();

  /** `existing`: the column names the target table has already (older names stay in use). */
  constructor(private readonly existing: Set<string>) {}

  /**
   * Changes adding columns for new keys and widening columns whose values no longer fit. Types
   * only ever widen (a join on a lattice), so the scan starts from the column's type and skips
   * what cannot change it: every value of a jsonb column, and all but objects in a text column.
   */
  changesFor(rows: Record<string, unknown>[]): ColumnChange[] {
    const wanted = new Map<string, ColumnType | null>();
    for (const row of rows) {
      for (const key in row) {
        let current = wanted.get(key);
        if (current === undefined) {
          current = this.byKey.get(key)?.type ?? null;
          wanted.set(key, current);
        }
        if (current === 'jsonb') continue;
        const kind = current === 'text' ? textColumnKind(row[key]) : kindOf(row[key]);
        if (kind !== current && kind !== null) wanted.set(key, widen(current, kind));
      }
    }
    const changes: ColumnChange[] = [];
    for (const [key, target] of wanted) {
      let state = this.byKey.get(key);
      if (!state) {
        const base = key.startsWith(ITERATION_PREFIX)
          ? `_${safeColumnName(key.slice(ITERATION_PREFIX.length))}`
          : columnNameFor(key, this.existing);
        state = { name: uniqueName(base, this.usedNames), type: null };
        this.byKey.set(key, state);
      }
      if (target === state.type || target === null) continue;
      changes.push({ name: state.name, from: state.type, to: target });
      state.type = target;
    }
    return changes;
  }

  /**
   * The columns with a type (keys only ever null have none), in first-seen order; a timestamptz
   * column is followed by the one keeping its values' text as fetched.
   */
  typed(): CopyColumn[] {
    const typed: CopyColumn[] = [];
    for (const [key, state] of this.byKey) {
      if (!state.type) continue;
      typed.push({ key, name: state.name, type: state.type });
      if (state.type === 'timestamptz')
        typed.push({ key, name: writtenTextColumn(state.name), type: 'text' });
    }
    return typed;
  }

  /** The columns of the declared primary_key fields (after shaping). */
  keyColumns(primaryKey: string[]): string[] {
    return primaryKey.map((key) => {
      const state = this.byKey.get(key);
      if (!state?.type) throw new MissingKeyError(`primary_key field '${key}' is missing from every record`);
      return state.name;
    });
  }
}

/** What a value asks of a text column: only an object (jsonb) can widen it further. */
function textColumnKind(value: unknown): ColumnType | null {
  if (value === null || value === undefined) return null;
  return typeof value === 'object' && !isLosslessNumber(value) ? 'jsonb' : 'text';
}

/**
 * The page's records with its iteration values added as pseudo-keys that become `_<key>` columns,
 * apart from the records' own keys. The pseudo-keys are the same for the whole page.
 */
export function withIteration(
  records: Record<string, unknown>[],
  iteration: Record<string, unknown>,
): Record<string, unknown>[] {
  if (!hasKeys(iteration)) return records;
  const iterationColumns = Object.fromEntries(
    Object.entries(iteration).map(([key, value]) => [`${ITERATION_PREFIX}${key}`, value]),
  );
  return records.map((record) => ({ ...record, ...iterationColumns }));
}

function hasKeys(value: Record<string, unknown>): boolean {
  for (const _key in value) return true;
  return false;
}

/** A record field's column: its name, or the older name the existing table already has for it. */
function columnNameFor(key: string, existing: Set<string>): string {
  const name = safeColumnName(key);
  if (existing.has(name)) return name;
  const legacy = legacyColumnName(key);
  return existing.has(legacy) ? legacy : name;
}

function uniqueName(base: string, used: Set<string>): string {
  let name = base;
  for (let suffix = 2; used.has(name) || name === RUN_ID_COLUMN || name === FETCHED_AT_COLUMN; suffix++)
    name = `${base}_${suffix}`;
  used.add(name);
  return name;
}
