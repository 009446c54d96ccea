/** Client-side checks of the Upload Dataset form (a title and a .csv, .xlsx or .parquet file) and the multipart body of POST assets/upload-csv. */

export const TITLE_AND_FILE_REQUIRED = 'Add title & CSV file.';
export const PRICE_INVALID = 'Price must be a non-negative amount with at most two decimals.';

export interface DatasetUploadForm {
  title: string;
  description: string;
  category: string;
  keywords: string;
  licence: string;
  price: string;
  isPublic: boolean;
  file: File | null;
}

export const UPLOADED = 'Dataset uploaded.';

/** Beside the form, for a chosen file of no kind the upload takes: what to choose instead. */
export function notCsvMessage(fileName: string): string {
  return `“${fileName}” is not a CSV, Excel or Parquet file: choose a file ending in .csv, .xlsx or .parquet.`;
}

/**
 * `error` is the notice (the spec's text); `detail`, when there is more to say than that, is
 * shown beside the form.
 */
export type DatasetUploadCheck =
  | { fields: Record<string, string>; error?: undefined; detail?: undefined }
  | { fields?: undefined; error: string; detail?: string };

/** A file counts as CSV by its .csv extension; the server checks the content. */
export function isCsvFileName(name: string): boolean {
  return /\.csv$/i.test(name.trim());
}

/** An Excel workbook by its .xlsx extension: loaded from its first sheet or a named one. */
export function isWorkbookFileName(name: string): boolean {
  return /\.xlsx$/i.test(name.trim());
}

/** A Parquet file by its .parquet extension: loaded with the column types it declares. */
export function isParquetFileName(name: string): boolean {
  return /\.parquet$/i.test(name.trim());
}

/** A file the upload takes: CSV, Excel workbook or Parquet, by its name. */
export function isUploadableFileName(name: string): boolean {
  return isCsvFileName(name) || isWorkbookFileName(name) || isParquetFileName(name);
}

/** Beside the form as soon as a file is chosen: what is wrong with it, if anything. */
export function chosenFileProblem(file: File | null): string | null {
  return file && !isUploadableFileName(file.name) ? notCsvMessage(file.name) : null;
}

/** The text parts of the multipart form, or the message to show instead of uploading. */
export function checkDatasetUpload(form: DatasetUploadForm): DatasetUploadCheck {
  const wrongType = chosenFileProblem(form.file);
  // The spec's notice stands for a missing title or file; a title with a file of the wrong kind
  // is told exactly that, in the notice too.
  if (wrongType && form.title.trim()) return { error: wrongType };
  if (wrongType) return { error: TITLE_AND_FILE_REQUIRED, detail: wrongType };
  if (!form.title.trim() || !form.file) return { error: TITLE_AND_FILE_REQUIRED };
  const price = form.price.trim();
  if (price !== '' && !/^\d{1,10}(\.\d{1,2})?$/.test(price)) return { error: PRICE_INVALID };
  return {
    fields: {
      title: form.title.trim(),
      description: form.description.trim(),
      category: form.category.trim(),
      keywords: form.keywords.trim(),
      licence: form.licence.trim(),
      price: price === '' ? '0' : price,
      is_public: String(form.isPublic),
    },
  };
}
