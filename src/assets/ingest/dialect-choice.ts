import type { Request } from 'express';
import {
  CsvDialect,
  DATE_ORDERS,
  DECIMAL_MARKS,
  DELIMITERS,
  ENCODINGS,
  THOUSANDS_SEPARATORS,
} from '../../formats/readers/csv-dialect';
import type { AssetColumn } from '../entities/asset.entity';
import { CsvRejection } from './csv-rejection';

/** The types an uploader may give a column (jsonb is the connectors' own). */
export const CHOSEN_COLUMN_TYPES = [
  'integer',
  'numeric',
  'boolean',
  'date',
  'timestamp',
  'timestamptz',
  'text',
] as const;

/** What the upload form chose about the file; whatever it leaves out is detected or canonical. */
export interface DialectChoice {
  dialect: Partial<CsvDialect>;
  columnTypes?: AssetColumn['type'][];
}

/** The form fields that choose the dialect, each with the values it takes. */
const FIELDS = {
  delimiter: { key: 'delimiter', values: DELIMITERS },
  encoding: { key: 'encoding', values: ENCODINGS },
  decimal_mark: { key: 'decimal', values: DECIMAL_MARKS },
  thousands_separator: { key: 'thousands', values: THOUSANDS_SEPARATORS },
  date_order: { key: 'dateOrder', values: DATE_ORDERS },
} as const;

function shown(value: string): string {
  return value === '\t' ? 'tab' : value === '' ? 'none (empty)' : value === ' ' ? 'space' : value;
}

/**
 * The dialect and column types chosen in the text fields of an upload form (which must come
 * before the file part, so they are read before the file is). Throws a 400 naming the field.
 */
export function dialectChoiceFrom(body: Record<string, unknown> | undefined): DialectChoice {
  const dialect: Record<string, string> = {};
  for (const [field, { key, values }] of Object.entries(FIELDS)) {
    const value = body?.[field];
    if (value === undefined) continue;
    if (typeof value !== 'string' || !(values as readonly string[]).includes(value)) {
      throw new CsvRejection(`${field} must be one of: ${values.map(shown).join(', ')}.`);
    }
    dialect[key] = value;
  }
  return { dialect: dialect as Partial<CsvDialect>, columnTypes: columnTypesFrom(body?.column_types) };
}

function columnTypesFrom(value: unknown): AssetColumn['type'][] | undefined {
  if (value === undefined) return undefined;
  const types = typeof value === 'string' ? value.split(',').map((type) => type.trim()) : [];
  if (
    types.length === 0 ||
    types.some((type) => !(CHOSEN_COLUMN_TYPES as readonly string[]).includes(type))
  ) {
    throw new CsvRejection(
      `column_types must list one type per column, separated by commas, each one of: ${CHOSEN_COLUMN_TYPES.join(', ')}.`,
    );
  }
  return types as AssetColumn['type'][];
}

/** The sheet of a workbook the form names (`sheet`), if any; the first sheet otherwise. */
export function sheetChoiceOf(request: Request): string | undefined {
  const sheet = (request.body as Record<string, unknown> | undefined)?.sheet;
  if (sheet === undefined || sheet === '') return undefined;
  if (typeof sheet !== 'string' || sheet.length > 100) {
    throw new CsvRejection('sheet must be the name of a sheet of the workbook (at most 100 characters).');
  }
  return sheet;
}

/** The choice of this request's form, read once its text fields have arrived. */
export function dialectChoiceOf(request: Request): DialectChoice {
  return dialectChoiceFrom(request.body as Record<string, unknown> | undefined);
}
