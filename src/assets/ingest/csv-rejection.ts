import { VALUE_TOO_LARGE } from '../../query/run/row-size-cap';

/**
 * Why an uploaded file was refused, in words for the uploader. `status` is the HTTP answer:
 * 400 for malformed CSV, 413 for a file over the size limit, 415 for something that is not CSV text.
 */
export class CsvRejection extends Error {
  constructor(
    message: string,
    readonly status: 400 | 413 | 415 = 400,
  ) {
    super(message);
    this.name = 'CsvRejection';
  }
}

export function notCsvText(): CsvRejection {
  return new CsvRejection('The file is not a CSV text file (it contains binary data).', 415);
}

export function invalidUtf8(line: number): CsvRejection {
  return new CsvRejection(
    `Line ${line} is not valid UTF-8 text. Save the file as UTF-8 and upload it again.`,
  );
}

/** Classic Mac files end lines with CR alone; the CSV reader (like COPY) splits lines on LF. */
export function carriageReturnLineBreaks(): CsvRejection {
  return new CsvRejection(
    'The file ends its lines with carriage returns (CR) only. Save it with LF or CRLF line endings and upload it again.',
  );
}

/** Longest part of a refused value a message quotes. */
export const MISFIT_VALUE_CHARS = 40;

/**
 * A value as a one-line message quotes it: line breaks and control characters as spaces, cut
 * short. `cutShort` marks a value of which only the start is at hand.
 */
export function quotedValue(value: string, cutShort = false): string {
  const characters = Array.from(value.replace(/\p{Cc}/gu, ' '));
  const shown = characters.slice(0, MISFIT_VALUE_CHARS).join('');
  return `"${shown}${cutShort || characters.length > MISFIT_VALUE_CHARS ? '…' : ''}"`;
}

/** A value a dataset's column cannot hold, named by the column, its line and the value itself. */
export function valueMisfit(
  column: { label: string; type: string },
  line: number,
  value: string,
  cutShort = false,
): CsvRejection {
  return new CsvRejection(
    `Column "${column.label}" expects ${column.type}, but line ${line} has ${quotedValue(value, cutShort)}`,
  );
}

/** A value past the cap every stored value keeps, named by its line and column. */
export function valueTooLarge(label: string, line: number): CsvRejection {
  return new CsvRejection(`Line ${line}, column "${label}": ${VALUE_TOO_LARGE}.`);
}
