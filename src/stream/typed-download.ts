import { BadRequestException } from '@nestjs/common';
import type { Duplex } from 'node:stream';
import { ExportColumn, MAX_DECIMAL_PRECISION } from '../formats/binary-columns';
import type { ParquetCompression } from '../formats/writers/parquet-compression';
import { parquetEncoder } from '../formats/writers/parquet-writer';
import { XLSX_MAX_DATA_ROWS, XLSX_TOO_MANY_ROWS, XlsxEncoder } from '../formats/writers/xlsx-writer';
import type { Sql } from '../database/sql';
import { countUpToQuery, jsonKeys, numericShapesQuery, sourceBinaryCopy } from './stream-sql';
import type { StreamPage, StreamSource, TypedFormat } from './stream-source';

/** What copyOut needs to answer one source as a typed file. */
export interface TypedDownload {
  copySql: string;
  /** What must hold before any byte goes out (Excel: the sheet's row limit). */
  prepare?(sql: Sql): Promise<void>;
  /** What the file's types need, learnt beside the COPY in its snapshot (Parquet: numeric digits). */
  beside?(sql: Sql): Promise<void>;
  transform(beside: Promise<void>): Duplex;
}

/**
 * One source as Parquet or Excel: a binary COPY of its columns (keyed like the JSON answers),
 * and in the same snapshot what the file's types need: each numeric column's digits (Parquet,
 * counted while the COPY runs) or the row count (Excel's sheet limit, refused with 400 before any
 * byte).
 */
export function typedDownload(
  source: StreamSource,
  format: TypedFormat,
  page: StreamPage,
  where?: string,
  compression?: ParquetCompression,
): TypedDownload {
  const labels = jsonKeys(source.columns);
  const columns: ExportColumn[] = source.columns.map((column, index) => ({
    name: column.name,
    label: labels[index],
    pgType: column.pgType,
  }));
  const copySql = sourceBinaryCopy(source, columns, page, where);
  if (format === 'xlsx') {
    return {
      copySql,
      async prepare(sql) {
        const { rows } = await sql<{ rows: number }>(
          countUpToQuery(source, XLSX_MAX_DATA_ROWS + 1, page, where),
        );
        if (rows[0].rows > XLSX_MAX_DATA_ROWS) throw new BadRequestException(XLSX_TOO_MANY_ROWS);
      },
      transform: () => new XlsxEncoder(columns, source.readableName),
    };
  }
  const numeric = columns.some((column) => column.pgType === 'numeric');
  return {
    copySql,
    beside: numeric ? (sql) => shapeDecimals(sql, source, columns, page, where) : undefined,
    // The encoder reads the columns' digits once `beside` has set them, keeping the COPY's first
    // bytes meanwhile.
    transform: (beside) => parquetEncoder(columns, beside, compression),
  };
}

/**
 * Gives each numeric column the DECIMAL(precision, scale) its values need: the largest scale
 * among them, and enough digits before the point for the largest. A column with NaN/Infinity
 * or needing more than 38 digits has none and is written as exact text.
 */
async function shapeDecimals(
  sql: Sql,
  source: StreamSource,
  columns: ExportColumn[],
  page: StreamPage,
  where?: string,
): Promise<void> {
  const numeric = columns.filter((column) => column.pgType === 'numeric');
  if (numeric.length === 0) return;
  const sourceColumns = numeric.map((column) => source.columns.find((each) => each.name === column.name)!);
  const { rows } = await sql<Record<string, unknown>>(numericShapesQuery(source, sourceColumns, page, where));
  const [shapes] = rows;
  numeric.forEach((column, index) => {
    const scale = (shapes[`scale_${index}`] as number | null) ?? 0;
    const largest = (shapes[`largest_${index}`] as string | null) ?? '0';
    if (largest === 'NaN' || largest === 'Infinity') return;
    const wholeDigits = largest.split('.')[0].replace(/^0+/, '').length;
    const precision = Math.max(wholeDigits + scale, 1);
    if (precision <= MAX_DECIMAL_PRECISION) column.decimal = { precision, scale };
  });
}
