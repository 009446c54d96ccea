import { slugIdentifier } from '../../database/data-tables/data-table-names';
import { valueKinds } from './value-kinds';

export type LineEnding = 'lf' | 'crlf';
export type Delimiter = ',' | ';' | '\t' | '|';

const QUOTE = 0x22;
const LF = 0x0a;
const CR = 0x0d;

export interface HeaderLocation {
  /** Index of the byte after the header record's line break: data starts here. */
  dataStart: number;
  /** The header record without its line break. */
  headerEnd: number;
  lineEnding: LineEnding;
  /** Physical lines the header occupies (more than one if a quoted name holds a line break). */
  lines: number;
}

/** Finds the end of the first CSV record (quotes respected); null while it has not arrived yet. */
export function locateHeader(bytes: Uint8Array): HeaderLocation | null {
  let inQuote = false;
  let lines = 1;
  for (let index = 0; index < bytes.length; index++) {
    const byte = bytes[index];
    if (byte === QUOTE) inQuote = !inQuote;
    else if (byte === LF) {
      if (!inQuote) {
        const crlf = index > 0 && bytes[index - 1] === CR;
        return {
          dataStart: index + 1,
          headerEnd: crlf ? index - 1 : index,
          lineEnding: crlf ? 'crlf' : 'lf',
          lines,
        };
      }
      lines++;
    }
  }
  return null;
}

/** The delimiter used most often outside quotes in the header line; comma when there is none. */
export function detectDelimiter(headerLine: string): Delimiter {
  const counts: Record<Delimiter, number> = { ',': 0, ';': 0, '\t': 0, '|': 0 };
  let inQuote = false;
  for (const character of headerLine) {
    if (character === '"') inQuote = !inQuote;
    else if (!inQuote && character in counts) counts[character as Delimiter]++;
  }
  let best: Delimiter = ',';
  for (const candidate of [';', '\t', '|'] as const) if (counts[candidate] > counts[best]) best = candidate;
  return best;
}

/**
 * Splits the header line the way Postgres's CSV parser splits records: a quote anywhere toggles
 * quoting and a doubled quote inside quotes is a literal quote.
 */
export function splitHeader(headerLine: string, delimiter: Delimiter): string[] {
  const labels: string[] = [];
  let current = '';
  let inQuote = false;
  for (let index = 0; index < headerLine.length; index++) {
    const character = headerLine[index];
    if (character === '"') {
      if (inQuote && headerLine[index + 1] === '"') {
        current += '"';
        index++;
      } else inQuote = !inQuote;
    } else if (character === delimiter && !inQuote) {
      labels.push(current);
      current = '';
    } else current += character;
  }
  labels.push(current);
  return labels.map((label) => label.trim());
}

/**
 * True when line 1 holds data rather than column names: every name reads as a value (number,
 * date, true/false) of the same kind as the value below it in line 2 (when line 2 is at hand).
 * Distinct four-digit years are names (a pivot's 2022, 2023, ... columns), and so is any name
 * whose kind differs from the value below it ("Yes,No" over counts).
 */
export function headerLooksLikeData(labels: string[], firstRow?: string[]): boolean {
  const filled = labels.map((label, index) => ({ label, index })).filter(({ label }) => label !== '');
  if (filled.length === 0) return true;
  const kinds = filled.map(({ label }) => kindsOf(label));
  if (kinds.some((kind) => kind === 0)) return false;
  const years = filled.map(({ label }) => label);
  if (years.every((label) => /^[12][0-9]{3}$/.test(label)) && new Set(years).size === years.length)
    return false;
  if (!firstRow) return true;
  return filled.every(({ index }, position) => (kindsOf(firstRow[index] ?? '') & kinds[position]) !== 0);
}

function kindsOf(text: string): number {
  const bytes = Buffer.from(text);
  return valueKinds(bytes, 0, bytes.length);
}

// Names Postgres reserves for system columns, plus the table's own row id.
const RESERVED_NAMES = new Set(['oid', 'tableoid', 'xmin', 'cmin', 'xmax', 'cmax', 'ctid']);
// Postgres truncates identifiers at 63 bytes; leave room for a "_NN" suffix.
const MAX_NAME_LENGTH = 56;

function safeName(label: string, position: number): string {
  let name = slugIdentifier(label, MAX_NAME_LENGTH);
  if (!name) name = `column_${position + 1}`;
  if (/^[0-9]/.test(name)) name = `c_${name}`.slice(0, MAX_NAME_LENGTH);
  if (RESERVED_NAMES.has(name)) name = `${name}_column`;
  return name;
}

/** Safe, unique SQL column names (lower-case letters, digits, underscores) for the header labels. */
export function columnNamesFor(labels: string[]): string[] {
  const used = new Set<string>();
  return labels.map((label, position) => {
    const base = safeName(label, position);
    let name = base;
    for (let suffix = 2; used.has(name); suffix++) name = `${base}_${suffix}`;
    used.add(name);
    return name;
  });
}
