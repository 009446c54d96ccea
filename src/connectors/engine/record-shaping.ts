import { isLosslessNumber } from 'lossless-json';
import type { RecordFilter, RecordShaping } from '../dsl/connector-spec.types';
import { ConnectorFetchError } from './connector-fetch-error';
import { dateRoot } from './date-functions';
import { recordsFromHeaderRow } from './header-row';
import { pathSteps, valueAtResponsePath } from './response-path';
import { fillText, valueAtPath } from './template';

type Row = Record<string, unknown>;

/** The most rows one selected record may zip into (a guard against a runaway array). */
const MAX_ZIPPED_ROWS = 1_000_000;

function isPlainObject(value: unknown): value is Row {
  return value !== null && typeof value === 'object' && !Array.isArray(value) && !isLosslessNumber(value);
}

function asRecord(item: unknown): Row {
  return isPlainObject(item) ? item : { value: item };
}

/**
 * The records at a dotted path whose `*` steps go over every item of an array or every value of
 * an object (`near_earth_objects.*`, `data.*.items`). The array found at the end gives one record
 * per item. With `keyField`, the key (or index) the last `*` stepped over is kept in that field.
 */
export function selectRecords(
  document: unknown,
  path: string,
  keyField?: string,
  label = 'response_path',
): Row[] {
  const records: Row[] = [];
  for (const { value, key } of selectValues(document, path, label)) {
    const items = Array.isArray(value) ? value : [value];
    for (const item of items) {
      if (item === null || item === undefined) continue;
      const record = asRecord(item);
      records.push(keyField && key !== undefined ? { [keyField]: key, ...record } : record);
    }
  }
  return records;
}

/** The items of the arrays (or single values) at the path, as they are: header_row reads arrays. */
function selectItems(document: unknown, path: string, label: string): unknown[] {
  return selectValues(document, path, label).flatMap(({ value }) => (Array.isArray(value) ? value : [value]));
}

/** The values a dotted path with `*` steps reaches, each with the key its last `*` stepped over. */
function selectValues(
  document: unknown,
  path: string,
  label: string,
): Array<{ value: unknown; key?: string }> {
  const steps = pathSteps(path);
  const found: Array<{ value: unknown; key?: string }> = [];
  const walk = (value: unknown, index: number, key: string | undefined) => {
    if (value === undefined || value === null) return;
    if (index === steps.length) {
      found.push({ value, key });
      return;
    }
    const step = steps[index];
    if (step === '*') {
      if (Array.isArray(value)) value.forEach((item, position) => walk(item, index + 1, String(position)));
      else if (isPlainObject(value))
        for (const [name, inner] of Object.entries(value)) walk(inner, index + 1, name);
      return;
    }
    if (typeof value !== 'object') return;
    walk((value as Row)[step], index + 1, key);
  };
  walk(document, 0, undefined);
  if (found.length === 0 && steps.length > 0 && !steps.includes('*')) {
    throw new ConnectorFetchError(`${label} '${path}' was not found in the response`);
  }
  return found;
}

/** One row per index of the record's parallel arrays; its other fields repeat on every row. */
export function zipRecord(record: Row, fields: true | string[]): Row[] {
  const zipped = fields === true ? Object.keys(record).filter((key) => Array.isArray(record[key])) : fields;
  const arrays = zipped.filter((key) => Array.isArray(record[key]));
  if (arrays.length === 0) return [record];
  const length = Math.max(...arrays.map((key) => (record[key] as unknown[]).length));
  if (length > MAX_ZIPPED_ROWS) throw new ConnectorFetchError(`zip: arrays longer than ${MAX_ZIPPED_ROWS}`);
  const rest: Row = {};
  for (const [key, value] of Object.entries(record)) if (!arrays.includes(key)) rest[key] = value;
  const rows: Row[] = [];
  for (let index = 0; index < length; index++) {
    const row: Row = { ...rest };
    for (const key of arrays) row[key] = (record[key] as unknown[])[index] ?? null;
    rows.push(row);
  }
  return rows;
}

/** Nested objects become `outer_inner` fields down to `depth` levels; arrays stay whole. */
export function flattenRecord(record: Row, depth: number, prefix = ''): Row {
  const flat: Row = {};
  for (const [key, value] of Object.entries(record)) {
    const name = prefix ? `${prefix}_${key}` : key;
    if (depth > 0 && isPlainObject(value)) Object.assign(flat, flattenRecord(value, depth - 1, name));
    else flat[name] = value;
  }
  return flat;
}

const SINGLE_PLACEHOLDER = /^\{\{\s*([\w.-]+)\s*\}\}$/;

/** A template's value: one bare placeholder keeps the value's type, anything else is text. */
function templateValue(template: string, context: Row): unknown {
  const single = SINGLE_PLACEHOLDER.exec(template);
  if (single) {
    const root = dateRoot(context, single[1]);
    return root ? fillText(template, context) : (valueAtPath(context, single[1]) ?? null);
  }
  return fillText(template, context);
}

function comparable(value: unknown): number | string | boolean | null {
  if (value === null || value === undefined) return null;
  if (typeof value === 'number' || typeof value === 'boolean') return value;
  if (isLosslessNumber(value)) return Number(value.toString());
  if (typeof value === 'string' && /^-?\d+(\.\d+)?$/.test(value.trim())) return Number(value);
  return typeof value === 'object' ? JSON.stringify(value) : String(value);
}

function compare(left: unknown, right: unknown): number | null {
  const a = comparable(left);
  const b = comparable(right);
  if (a === null || b === null) return null;
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  const textA = String(a);
  const textB = String(b);
  return textA < textB ? -1 : textA > textB ? 1 : 0;
}

/** Whether a record passes the filter (a field missing or null fails every comparison but ne). */
export function passesFilter(record: Row, filter: RecordFilter): boolean {
  const value = valueAtResponsePath(record, filter.field);
  const present = value !== undefined && value !== null;
  switch (filter.op) {
    case 'exists':
      return present;
    case 'not_exists':
      return !present;
    case 'in':
      return Array.isArray(filter.value) && filter.value.some((item) => compare(value, item) === 0);
    case 'eq':
      return compare(value, filter.value) === 0;
    case 'ne':
      return compare(value, filter.value) !== 0;
  }
  const order = compare(value, filter.value);
  if (order === null) return false;
  if (filter.op === 'gt') return order > 0;
  if (filter.op === 'gte') return order >= 0;
  if (filter.op === 'lt') return order < 0;
  return order <= 0;
}

/** What add_fields templates may read besides the settings. */
export interface ShapingContext {
  settings: Row;
  partition: Row;
  parent?: Row;
}

/**
 * The rows of one decoded page: selected (records.path, else response_path; a header row and
 * arrays become records), then zipped,
 * flattened, given fields, stripped of fields, renamed and filtered, in that order.
 */
export function shapePage(
  document: unknown,
  responsePath: string | null | undefined,
  shaping: RecordShaping | undefined,
  context: ShapingContext,
): Row[] {
  const path = shaping?.path ?? responsePath ?? '';
  const label = shaping?.path ? 'records.path' : 'response_path';
  let records = shaping?.header_row
    ? recordsFromHeaderRow(selectItems(document, path, label), label)
    : selectRecords(document, path, shaping?.key_field, label);
  if (!shaping) return records;
  if (shaping.zip) records = records.flatMap((record) => zipRecord(record, shaping.zip!));
  if (shaping.flatten_depth) records = records.map((record) => flattenRecord(record, shaping.flatten_depth!));
  const additions = Object.entries(shaping.add_fields ?? {});
  const removals = shaping.remove_fields ?? [];
  const renames = Object.entries(shaping.rename_fields ?? {});
  if (additions.length + removals.length + renames.length > 0) {
    records = records.map((record) => {
      const row: Row = { ...record };
      const values = { ...context.settings, partition: context.partition, parent: context.parent, record };
      for (const [field, template] of additions) row[field] = templateValue(template, values);
      for (const field of removals) delete row[field];
      for (const [from, to] of renames) {
        if (!(from in row)) continue;
        row[to] = row[from];
        delete row[from];
      }
      return row;
    });
  }
  if (shaping.filter) records = records.filter((record) => passesFilter(record, shaping.filter!));
  return records;
}
