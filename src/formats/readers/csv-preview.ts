import type { AssetColumn } from '../../assets/entities/asset.entity';
import { columnNamesFor } from '../../assets/ingest/csv-header';
import { columnTypeFor, KIND_ALL, valueKinds } from '../../assets/ingest/value-kinds';
import type { CsvDialect } from './csv-dialect';
import { decodeSample, detectDialect } from './dialect-detection';
import { splitRecords } from './sample-records';
import { rewriteRules, rewriteValue } from './value-rewrite';

/** Rows of the sample that type the columns; the preview shows the first PREVIEW_ROWS of them. */
const TYPED_ROWS = 5000;
export const PREVIEW_ROWS = 20;

export interface CsvPreview {
  dialect: CsvDialect;
  columns: AssetColumn[];
  /** The first rows as written in the file. */
  rows: string[][];
}

/**
 * What the upload would make of a file, from its first bytes: the dialect (detected, or as
 * chosen), the columns with the types their values fit once read in that dialect, and the first
 * rows. `whole`: the sample is the entire file (its last line is complete even without a line break).
 */
export function previewCsv(sample: Buffer, chosen: Partial<CsvDialect>, whole: boolean): CsvPreview {
  const detected = detectDialect(sample, chosen.encoding);
  const dialect: CsvDialect = { ...detected, ...chosen };
  const records = splitRecords(
    decodeSample(sample, dialect.encoding),
    dialect.delimiter,
    TYPED_ROWS + 1,
    whole,
  );
  const labels = (records[0] ?? []).map((label) => label.trim());
  const names = columnNamesFor(labels);
  const data = records.slice(1);
  const rules = rewriteRules(dialect);
  const columns = names.map<AssetColumn>((name, index) => {
    let kinds = KIND_ALL;
    let sawValue = false;
    for (const record of data) {
      const value = record[index];
      if (value === undefined || value === '') continue;
      const bytes = Buffer.from(rewriteValue(value, rules));
      kinds &= valueKinds(bytes, 0, bytes.length);
      sawValue = true;
    }
    return { name, label: labels[index] || `Column ${index + 1}`, type: columnTypeFor(kinds, sawValue) };
  });
  return { dialect, columns, rows: data.slice(0, PREVIEW_ROWS) };
}
