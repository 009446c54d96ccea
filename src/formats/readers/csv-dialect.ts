/**
 * How a CSV file is written: the separators, the text encoding and how numbers and dates look.
 * The canonical dialect (UTF-8, dot decimals, ISO dates) goes to COPY as it is; any other is
 * rewritten on the way in (see csv-normaliser.ts).
 */
export const DELIMITERS = [',', ';', '\t', '|'] as const;
export type CsvDelimiter = (typeof DELIMITERS)[number];

/** `windows-1252` also reads Latin-1 (ISO-8859-1) files: it is a superset of its printable part. */
export const ENCODINGS = ['utf-8', 'utf-16le', 'utf-16be', 'windows-1252'] as const;
export type CsvEncoding = (typeof ENCODINGS)[number];

export const DECIMAL_MARKS = ['.', ','] as const;
export type DecimalMark = (typeof DECIMAL_MARKS)[number];

/** '' for none; ' ' also stands for the no-break spaces some spreadsheets write. */
export const THOUSANDS_SEPARATORS = ['', ',', '.', ' ', "'"] as const;
export type ThousandsSeparator = (typeof THOUSANDS_SEPARATORS)[number];

/** Order of the parts of a date written with / . or - and a four-digit year last. */
export const DATE_ORDERS = ['ymd', 'dmy', 'mdy'] as const;
export type DateOrder = (typeof DATE_ORDERS)[number];

export interface CsvDialect {
  delimiter: CsvDelimiter;
  encoding: CsvEncoding;
  decimal: DecimalMark;
  thousands: ThousandsSeparator;
  dateOrder: DateOrder;
}

export const CANONICAL_DIALECT: CsvDialect = {
  delimiter: ',',
  encoding: 'utf-8',
  decimal: '.',
  thousands: '',
  dateOrder: 'ymd',
};

/** Whether values need no rewriting: only the delimiter differs from the canonical form, which COPY reads itself. */
export function needsNoRewrite(dialect: CsvDialect): boolean {
  return (
    dialect.encoding === 'utf-8' &&
    dialect.decimal === '.' &&
    dialect.thousands === '' &&
    dialect.dateOrder === 'ymd'
  );
}
