import { CsvRejection } from '../../assets/ingest/csv-rejection';

/**
 * How much larger than itself a compressed upload may become when unpacked. Spreadsheets and
 * Parquet files of real tables unpack to a few times, rarely twenty times their size; a
 * decompression bomb to thousands of times.
 */
export const EXPANSION_RATIO = 100;
/** What even a tiny file may unpack to: a workbook's fixed parts alone are a few hundred kB. */
const EXPANSION_FLOOR_BYTES = 16 * 1024 * 1024;

export type PackedKind = 'xlsx' | 'parquet';

const FILE_NAME: Record<PackedKind, string> = { xlsx: 'workbook', parquet: 'Parquet file' };

function megabytes(bytes: number): string {
  return `${Math.round(bytes / (1024 * 1024)).toLocaleString('en')} MB`;
}

/**
 * The bounds of reading one .xlsx or .parquet upload: the bytes it may unpack to (a multiple of
 * its own size, never over the server's setting) and the CSV text it may become.
 */
export class ExpansionLimit {
  /** Most bytes the file's compressed parts may unpack to. */
  readonly unpackedBytes: number;

  constructor(
    readonly kind: PackedKind,
    fileBytes: number,
    /** MAX_EXPANDED_UPLOAD_MB: the most any upload may unpack to, and the most CSV text it becomes. */
    readonly maxBytes: number,
  ) {
    this.unpackedBytes = Math.min(maxBytes, Math.max(EXPANSION_FLOOR_BYTES, fileBytes * EXPANSION_RATIO));
  }

  /** The file unpacks (or declares it unpacks) to more than `unpackedBytes`. */
  unpackedTooLarge(): CsvRejection {
    return new CsvRejection(
      `The ${FILE_NAME[this.kind]} unpacks to more than ${megabytes(this.unpackedBytes)} ` +
        `(at most ${EXPANSION_RATIO} times its own size, and ${megabytes(this.maxBytes)}); it was not loaded.`,
    );
  }

  /** The file's rows make (or would make) more than `maxBytes` of table text. */
  tableTooLarge(): CsvRejection {
    return new CsvRejection(
      `The ${FILE_NAME[this.kind]} holds more than ${megabytes(this.maxBytes)} of table data ` +
        `once unpacked; it was not loaded.`,
    );
  }
}

/** Counts bytes against a bound and throws the given rejection as soon as they pass it. */
export class ByteBudget {
  private spent = 0;

  constructor(
    private readonly limit: number,
    private readonly refusal: () => CsvRejection,
  ) {}

  spend(bytes: number): void {
    this.spent += bytes;
    if (this.spent > this.limit) throw this.refusal();
  }
}
