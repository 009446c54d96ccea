import type { components } from '../../api/schema';

export type CsvDialect = components['schemas']['CsvDialect'];
export type PreviewColumn = components['schemas']['AssetColumn'];
export type ColumnType = PreviewColumn['type'];

/** Each setting of the dialect with its choices, in words for the form. */
export const DIALECT_CHOICES = {
  delimiter: [
    { value: ',', label: 'Comma (,)' },
    { value: ';', label: 'Semicolon (;)' },
    { value: '\t', label: 'Tab' },
    { value: '|', label: 'Pipe (|)' },
  ],
  encoding: [
    { value: 'utf-8', label: 'UTF-8' },
    { value: 'utf-16le', label: 'UTF-16 (little-endian)' },
    { value: 'utf-16be', label: 'UTF-16 (big-endian)' },
    { value: 'windows-1252', label: 'Windows-1252 / Latin-1' },
  ],
  decimal: [
    { value: '.', label: 'Dot (1.5)' },
    { value: ',', label: 'Comma (1,5)' },
  ],
  thousands: [
    { value: '', label: 'None' },
    { value: ',', label: 'Comma (1,000)' },
    { value: '.', label: 'Dot (1.000)' },
    { value: ' ', label: 'Space (1 000)' },
    { value: "'", label: "Apostrophe (1'000)" },
  ],
  dateOrder: [
    { value: 'ymd', label: 'ISO (2024-12-31)' },
    { value: 'dmy', label: 'Day first (31/12/2024)' },
    { value: 'mdy', label: 'Month first (12/31/2024)' },
  ],
} as const;

export const DIALECT_LABELS: Record<keyof CsvDialect, string> = {
  delimiter: 'Delimiter',
  encoding: 'Encoding',
  decimal: 'Decimal mark',
  thousands: 'Thousands separator',
  dateOrder: 'Date order',
};

export const COLUMN_TYPES: ColumnType[] = [
  'text',
  'integer',
  'numeric',
  'boolean',
  'date',
  'timestamp',
  'timestamptz',
];

/**
 * The upload form's fields for a dialect and column types. The types go along only when the user
 * changed one: then every value must fit them; otherwise the server types the whole file itself.
 */
export function dialectFields(
  dialect: CsvDialect,
  types: ColumnType[],
  previewed: ColumnType[],
): Record<string, string> {
  const fields: Record<string, string> = {
    delimiter: dialect.delimiter,
    encoding: dialect.encoding,
    decimal_mark: dialect.decimal,
    thousands_separator: dialect.thousands,
    date_order: dialect.dateOrder,
  };
  if (types.some((type, index) => type !== previewed[index])) fields.column_types = types.join(',');
  return fields;
}
