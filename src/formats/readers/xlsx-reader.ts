import type ExcelJS from 'exceljs';
import { CsvRejection } from '../../assets/ingest/csv-rejection';
import { loadExcelJS } from '../exceljs-on-demand';
import { csvField, isoWallClock } from './csv-text';

/** Rows turned into CSV text before they are handed on in one chunk. */
const ROWS_PER_CHUNK = 2000;

type CellValue = ExcelJS.CellValue;

/** A cell's value as text for canonical CSV: null when empty, formulas by their result. */
function cellText(value: CellValue): string | null {
  if (value === null || value === undefined) return null;
  if (value instanceof Date) return isoWallClock(value);
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (typeof value === 'string') return value;
  if ('result' in value) return cellText((value.result ?? null) as CellValue);
  if ('richText' in value) return value.richText.map((part) => part.text).join('');
  if ('text' in value) return String(value.text);
  if ('error' in value) return null;
  return null;
}

/** The values of a row, from column 1 to `width` (exceljs's row values start at index 1). */
function rowLine(values: CellValue[], width: number): string {
  const fields: string[] = [];
  for (let column = 1; column <= width; column++) fields.push(csvField(cellText(values[column] ?? null)));
  return fields.join(',') + '\n';
}

/**
 * The first sheet of an .xlsx file (or the one named `sheet`) as canonical CSV: comma separated,
 * UTF-8, dot decimals, ISO dates, its first row the header. Read row by row from the file.
 */
export async function* xlsxAsCsv(path: string, sheet?: string): AsyncGenerator<Buffer> {
  const excel = await loadExcelJS();
  const workbook = new excel.stream.xlsx.WorkbookReader(path, {
    sharedStrings: 'cache',
    styles: 'cache',
    hyperlinks: 'ignore',
    worksheets: 'emit',
    entries: 'ignore',
  });
  const seen: string[] = [];
  for await (const worksheet of workbook) {
    const reader = worksheet as unknown as AsyncIterable<ExcelJS.Row> & { name: string };
    const wanted = sheet ?? firstSheetName(workbook) ?? reader.name;
    seen.push(reader.name);
    if (reader.name !== wanted) {
      // A sheet is read through to reach the next one in the zip.
      for await (const _row of reader);
      continue;
    }
    let width = 0;
    let text = '';
    let rows = 0;
    for await (const row of reader) {
      const values = row.values as CellValue[];
      if (width === 0) width = Math.max(values.length - 1, 0);
      text += rowLine(values, width);
      if (++rows % ROWS_PER_CHUNK === 0) {
        yield Buffer.from(text);
        text = '';
      }
    }
    if (text) yield Buffer.from(text);
    return;
  }
  throw new CsvRejection(
    sheet
      ? `The workbook has no sheet "${sheet}"${seen.length ? ` (it has ${seen.map((name) => `"${name}"`).join(', ')})` : ''}.`
      : 'The workbook has no sheet.',
  );
}

/** The sheet first in the workbook's tab order, once the workbook part has been read. */
function firstSheetName(workbook: ExcelJS.stream.xlsx.WorkbookReader): string | undefined {
  const model = (workbook as unknown as { model?: { sheets?: Array<{ name: string }> } }).model;
  return model?.sheets?.[0]?.name;
}
