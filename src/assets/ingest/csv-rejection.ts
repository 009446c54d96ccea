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
