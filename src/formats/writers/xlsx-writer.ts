import { BadRequestException } from '@nestjs/common';
import type ExcelJS from 'exceljs';
import { Transform, TransformCallback, Writable } from 'node:stream';
import { ExportColumn, valueKind, ValueKind } from '../binary-columns';
import { BinaryCopyRows } from '../binary-copy-rows';
import { ExcelJSModule, loadExcelJS } from '../exceljs-on-demand';
import { numericSpecial, numericText, PG_EPOCH_DAYS, timestampMicros } from '../pg-binary-values';

/** An Excel sheet has 1,048,576 rows; the first holds the column names. */
export const XLSX_MAX_DATA_ROWS = 1_048_575;

export const XLSX_TOO_MANY_ROWS =
  'An Excel sheet holds at most 1,048,575 rows and this download has more. ' +
  'Use format=csv or format=parquet, or fetch it in pages with limit and offset.';

/** Excel keeps 15 significant digits: longer numbers go in as text so no digit is lost. */
const EXCEL_DIGITS = 15;
const MS_PER_DAY = 86_400_000;

type CellValue = string | number | boolean | Date | null;

const NUMBER_FORMATS: Partial<Record<ValueKind, string>> = {
  date: 'yyyy-mm-dd',
  timestamp: 'yyyy-mm-dd hh:mm:ss',
  timestamptz: 'yyyy-mm-dd hh:mm:ss',
};

/** A number's text as an Excel number when it keeps every digit there, else the text itself. */
export function excelNumber(text: string): number | string {
  const significant = text.replace(/^-/, '').replace('.', '').replace(/^0+/, '').replace(/0+$/, '');
  return significant.length <= EXCEL_DIGITS ? Number(text) : text;
}

function cellValue(kind: ValueKind, buffer: Buffer, start: number, length: number): CellValue {
  if (length < 0) return null;
  switch (kind) {
    case 'integer':
      if (length === 8) return excelNumber(buffer.readBigInt64BE(start).toString());
      return length === 4 ? buffer.readInt32BE(start) : buffer.readInt16BE(start);
    case 'decimal':
    case 'numeric-text': {
      const text = numericText(buffer, start);
      return text === null ? numericSpecial(buffer, start) : excelNumber(text);
    }
    case 'float':
      return buffer.readDoubleBE(start);
    case 'boolean':
      return buffer[start] !== 0;
    case 'date':
      return new Date((buffer.readInt32BE(start) + PG_EPOCH_DAYS) * MS_PER_DAY);
    case 'timestamp':
    case 'timestamptz': {
      // Excel has no time zones: a zoned value is written in UTC, a naive one as its wall clock.
      const micros = timestampMicros(buffer, start);
      return micros === null ? null : new Date(Number(micros / 1000n));
    }
    case 'text':
      return buffer.toString('utf8', start, start + length);
  }
}

/**
 * Turns a binary COPY of `columns` into an .xlsx workbook of one sheet, written as it streams
 * (ExcelJS's streaming writer): a header row, then numbers, dates, true/false and text as typed
 * cells. More rows than a sheet holds fail the stream (the service refuses them before it starts).
 */
export class XlsxEncoder extends Transform {
  /** The workbook and the reader of the COPY that fills its sheet, once ExcelJS has loaded. */
  private readonly opened: Promise<OpenWorkbook>;
  private rowCount = 0;

  constructor(columns: ExportColumn[], sheetName: string) {
    super();
    this.opened = loadExcelJS().then((excel) => this.open(excel, columns, sheetName));
    // Reported by the first write or the end, whichever comes first.
    this.opened.catch(() => undefined);
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    this.opened.then(({ rows }) => rows.push(chunk)).then(() => callback(), callback);
  }

  override _flush(callback: TransformCallback): void {
    this.opened
      .then(({ rows, sheet, workbook }) => {
        if (!rows.complete) throw new Error('The table copy ended early');
        sheet.commit();
        return workbook.commit();
      })
      .then(() => callback(), callback);
  }

  private open(excel: ExcelJSModule, columns: ExportColumn[], sheetName: string): OpenWorkbook {
    const zipped = new Writable({
      write: (chunk: Buffer, _encoding, callback) => {
        this.push(chunk);
        callback();
      },
    });
    const workbook = new excel.stream.xlsx.WorkbookWriter({
      stream: zipped,
      useStyles: true,
      useSharedStrings: false,
    });
    workbook.creator = 'Data Marketplace';
    const sheet = workbook.addWorksheet(sheetName.slice(0, 31));
    const kinds = columns.map(valueKind);
    sheet.columns = columns.map((column, index) => ({
      header: column.label,
      key: column.label,
      width: Math.min(Math.max(column.label.length + 2, 12), 40),
      style: NUMBER_FORMATS[kinds[index]] ? { numFmt: NUMBER_FORMATS[kinds[index]] } : {},
    }));
    const rows = new BinaryCopyRows(columns.length, {
      row: (buffer, starts, lengths) => {
        if (++this.rowCount > XLSX_MAX_DATA_ROWS) throw new BadRequestException(XLSX_TOO_MANY_ROWS);
        const values = kinds.map((kind, index) => cellValue(kind, buffer, starts[index], lengths[index]));
        sheet.addRow(values).commit();
      },
    });
    return { workbook, sheet, rows };
  }
}

interface OpenWorkbook {
  workbook: ExcelJS.stream.xlsx.WorkbookWriter;
  sheet: ExcelJS.Worksheet;
  rows: BinaryCopyRows;
}
