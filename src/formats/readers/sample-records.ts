import type { CsvDelimiter } from './csv-dialect';

/**
 * Splits CSV text into records of unquoted values (quotes respected, "" inside quotes a quote),
 * at most `maxRecords`. A last record without a line break after it counts only when the text
 * is the `whole` file (else it may be cut off) or it is the only one. For samples only: the
 * upload itself is read by COPY.
 */
export function splitRecords(
  text: string,
  delimiter: CsvDelimiter,
  maxRecords: number,
  whole = false,
): string[][] {
  const records: string[][] = [];
  let record: string[] = [];
  let value = '';
  let inQuote = false;
  let index = 0;
  while (index < text.length && records.length < maxRecords) {
    const character = text[index];
    if (inQuote) {
      if (character === '"') {
        if (text[index + 1] === '"') {
          value += '"';
          index++;
        } else inQuote = false;
      } else value += character;
    } else if (character === '"') inQuote = true;
    else if (character === delimiter) {
      record.push(value);
      value = '';
    } else if (character === '\n' || character === '\r') {
      if (character === '\r' && text[index + 1] === '\n') index++;
      record.push(value);
      // A blank line is no record (COPY skips it too in a file of several columns).
      if (record.length > 1 || record[0] !== '') records.push(record);
      record = [];
      value = '';
    } else value += character;
    index++;
  }
  const open = value !== '' || record.length > 0;
  if (open && records.length < maxRecords && (whole || records.length === 0))
    records.push([...record, value]);
  return records;
}
