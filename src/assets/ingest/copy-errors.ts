import type { AssetColumn } from '../entities/asset.entity';
import { CsvRejection, invalidUtf8, notCsvText, valueMisfit } from './csv-rejection';

interface PgError {
  code?: string;
  message?: string;
  where?: string;
}

/**
 * Turns a Postgres COPY error into words for the uploader with the file's line number. COPY counts
 * data records from 1 after the header, so the header's own lines are added back.
 * Loading into a dataset's `columns`, a value its column's type cannot hold (SQLSTATE class 22,
 * data exception, like 2023-02-30 in a date column) is named with its column and line.
 * Returns null for errors that are not about the file (they stay server errors).
 */
export function describeCopyError(
  error: unknown,
  headerLines: number,
  columns?: ReadonlyArray<Pick<AssetColumn, 'name' | 'label' | 'type'>>,
): CsvRejection | null {
  const pgError = error as PgError;
  if (!pgError || typeof pgError.code !== 'string') return null;
  const copyLine = /COPY \S+, line (\d+)/.exec(pgError.where ?? '');
  const line = copyLine ? Number(copyLine[1]) + headerLines : undefined;
  const at = line === undefined ? 'The file' : `Line ${line}`;
  const message = pgError.message ?? '';
  switch (pgError.code) {
    case '22021': // character_not_in_repertoire: invalid byte sequence for encoding "UTF8"
      return invalidUtf8(line ?? 1);
    case '22P05': // untranslatable_character (e.g. \u0000)
      return notCsvText();
    case '22P04': // bad_copy_file_format
      if (message.startsWith('extra data after last expected column')) {
        return new CsvRejection(`${at} has more fields than the header has columns.`);
      }
      if (message.startsWith('missing data for column')) {
        return new CsvRejection(`${at} has fewer fields than the header has columns.`);
      }
      if (message.startsWith('unterminated CSV quoted field')) {
        return new CsvRejection(`${at}: a quoted field is never closed (missing closing quote).`);
      }
      if (/unquoted (carriage return|newline) found in data/.test(message)) {
        return new CsvRejection(
          `${at} mixes line endings. Use one line-ending style (LF or CRLF) throughout the file.`,
        );
      }
      return new CsvRejection(`${at}: ${message}`);
    case '54000': // program_limit_exceeded: row or field too big
      return new CsvRejection(`${at} is too large to store (${message}).`);
    default: {
      if (!columns || line === undefined || !pgError.code.startsWith('22')) return null;
      // COPY names the column and the value it could not read: `COPY t, line 3, column day: "x"`.
      const field = /, column (.+?): "(.*)"$/m.exec(pgError.where ?? '');
      const column = field && columns.find((candidate) => candidate.name === field[1]);
      return column ? valueMisfit(column, line, field[2]) : null;
    }
  }
}
