import { isUtf8 } from 'node:buffer';
import iconv from 'iconv-lite';
import {
  CsvDelimiter,
  CsvDialect,
  CsvEncoding,
  DateOrder,
  DecimalMark,
  DELIMITERS,
  ThousandsSeparator,
} from './csv-dialect';
import { splitRecords } from './sample-records';

/** Lines of the sample that decide the delimiter, numbers and dates: enough to be sure, cheap to split. */
const SAMPLE_LINES = 200;

/**
 * The encoding a BOM names, else UTF-8 when the bytes are valid UTF-8 (a cut-off last character
 * is allowed: the sample ends anywhere), else `fallback` (the single-byte encoding the form chose).
 */
export function detectEncoding(sample: Buffer, fallback: CsvEncoding = 'windows-1252'): CsvEncoding {
  if (sample[0] === 0xff && sample[1] === 0xfe) return 'utf-16le';
  if (sample[0] === 0xfe && sample[1] === 0xff) return 'utf-16be';
  if (isUtf8(sample.subarray(0, wholeCharactersEnd(sample)))) return 'utf-8';
  return fallback === 'utf-8' ? 'windows-1252' : fallback;
}

/** Where the sample's last whole UTF-8 character ends: a sample may stop inside one. */
function wholeCharactersEnd(sample: Buffer): number {
  const end = sample.length;
  for (let back = 1; back <= 3 && back <= end; back++) {
    const byte = sample[end - back];
    if ((byte & 0xc0) === 0x80) continue;
    const length = byte >= 0xf0 ? 4 : byte >= 0xe0 ? 3 : byte >= 0xc0 ? 2 : 1;
    return length > back ? end - back : end;
  }
  return end;
}

/** The sample as text in `encoding`, without its BOM. */
export function decodeSample(sample: Buffer, encoding: CsvEncoding): string {
  return iconv.decode(sample, encoding, { stripBOM: true });
}

/**
 * The delimiter that splits the most lines into the same number (above one) of fields, the header
 * line's count; ties go to the one with more fields. Comma when nothing splits.
 */
export function detectDelimiter(text: string): CsvDelimiter {
  let best: CsvDelimiter = ',';
  let bestScore = 0;
  for (const delimiter of DELIMITERS) {
    const records = splitRecords(text, delimiter, SAMPLE_LINES);
    const width = records[0]?.length ?? 0;
    if (width < 2) continue;
    const consistent = records.filter((record) => record.length === width).length;
    const score = consistent * 10_000 + width;
    if (score > bestScore) {
      best = delimiter;
      bestScore = score;
    }
  }
  return best;
}

const COMMA_DECIMAL = /^[+-]?\d+,\d+$/;
const DOT_DECIMAL = /^[+-]?\d+\.\d+$/;
const GROUPED = /^[+-]?\d{1,3}(?<separator>[.,  '])\d{3}(?:\k<separator>\d{3})*(?:(?<mark>[.,])\d+)?$/;

/**
 * Decimal mark and thousands separator from the values that look like numbers. A comma followed
 * by other than three digits (1,5) can only be a decimal comma; grouped digits (1.234.567 or
 * 1.234,5) name the separator; 1,234 alone is read as thousands when nothing says otherwise.
 */
export function detectNumberStyle(values: string[]): { decimal: DecimalMark; thousands: ThousandsSeparator } {
  let commaDecimals = 0;
  let dotDecimals = 0;
  const separators = new Map<string, number>();
  for (const raw of values) {
    const value = raw.trim();
    const grouped = GROUPED.exec(value);
    if (grouped?.groups) {
      const { separator, mark } = grouped.groups;
      if (mark && mark === separator) continue;
      if (mark === ',') commaDecimals++;
      else if (mark === '.') dotDecimals++;
      separators.set(separator, (separators.get(separator) ?? 0) + 1);
      continue;
    }
    if (COMMA_DECIMAL.test(value)) commaDecimals++;
    else if (DOT_DECIMAL.test(value)) dotDecimals++;
  }
  const decimal: DecimalMark = commaDecimals > dotDecimals ? ',' : '.';
  let thousands: ThousandsSeparator = '';
  let most = 0;
  for (const [separator, count] of separators) {
    // The decimal mark cannot also group digits.
    if (separator === decimal || count <= most) continue;
    thousands = (separator === ' ' ? ' ' : separator) as ThousandsSeparator;
    most = count;
  }
  return { decimal, thousands };
}

const SLASHED_DATE = /^(\d{1,2})[/.-](\d{1,2})[/.-]\d{4}(?:[ T]\d{1,2}:\d{2}(?::\d{2})?)?$/;

/**
 * Day-first or month-first from dates like 03/04/2024: a first part above 12 can only be a day,
 * a second part above 12 only a day too. Without such a value US order would be a guess, so
 * day-first (most of the world) is answered; 'ymd' when no such dates appear.
 */
export function detectDateOrder(values: string[]): DateOrder {
  let dayFirst = 0;
  let monthFirst = 0;
  let seen = 0;
  for (const value of values) {
    const parts = SLASHED_DATE.exec(value.trim());
    if (!parts) continue;
    seen++;
    if (Number(parts[1]) > 12) dayFirst++;
    else if (Number(parts[2]) > 12) monthFirst++;
  }
  if (seen === 0) return 'ymd';
  return monthFirst > dayFirst ? 'mdy' : 'dmy';
}

/**
 * The dialect of a file from its first bytes. `fallbackEncoding` is the single-byte encoding
 * assumed when the bytes are not UTF-8 (the form's setting).
 */
export function detectDialect(sample: Buffer, fallbackEncoding?: CsvEncoding): CsvDialect {
  const encoding = detectEncoding(sample, fallbackEncoding);
  const text = decodeSample(sample, encoding);
  const delimiter = detectDelimiter(text);
  const values = splitRecords(text, delimiter, SAMPLE_LINES).slice(1).flat();
  return { delimiter, encoding, ...detectNumberStyle(values), dateOrder: detectDateOrder(values) };
}
