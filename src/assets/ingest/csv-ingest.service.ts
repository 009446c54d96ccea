import { randomUUID } from 'node:crypto';
import { isUtf8 } from 'node:buffer';
import type { Readable } from 'node:stream';
import { Injectable, ServiceUnavailableException } from '@nestjs/common';
import type { Client } from 'pg';
import { DataSource } from 'typeorm';
import { GrantsService } from '../../access/grants.service';
import { datasetTableName } from '../../database/data-tables/data-table-names';
import { dedicatedClient, LONG_WORK_LIMITS_MS } from '../../database/sql';
import { CANONICAL_DIALECT, CsvDialect, CsvEncoding } from '../../formats/readers/csv-dialect';
import { ColumnRewrites, CsvNormaliser } from '../../formats/readers/csv-normaliser';
import { detectDialect } from '../../formats/readers/dialect-detection';
import type { AssetColumn } from '../entities/asset.entity';
import {
  columnNamesFor,
  Delimiter,
  detectDelimiter,
  headerLooksLikeData,
  HeaderLocation,
  locateHeader,
  splitHeader,
} from './csv-header';
import { carriageReturnLineBreaks, CsvRejection, invalidUtf8, notCsvText } from './csv-rejection';
import { CsvScanner } from './csv-scanner';
import { convertColumnTypes, CopyFormat, copyInto, createTable, isTypeMismatch } from './dataset-table-load';
import type { DialectChoice } from './dialect-choice';
import { normalisedChunks, utf8Chunks } from './dialect-streams';
import { StagedUpload } from './staged-upload';
import { SpooledReader, UploadSpool } from './upload-spool';
import { firstInvalidUtf8Offset } from './utf8-guard';
import { columnTypeFor } from './value-kinds';

const MAX_HEADER_BYTES = 1024 * 1024;
// Postgres allows 1600 columns per table; keep room for the row id.
const MAX_COLUMNS = 1500;
const UTF8_BOM = Buffer.from([0xef, 0xbb, 0xbf]);
const CR = 0x0d;
/**
 * How much of the file decides the first guess of the column types: a file this small is typed
 * exactly, a larger one is read a second time only if a later value does not fit the guess.
 */
const SAMPLE_BYTES = 4 * 1024 * 1024;
const SPOOL_UNAVAILABLE =
  'The server is short of temporary disk space to finish this upload. Please try again later.';

interface LoadedTable {
  columns: AssetColumn[];
  rowCount: number;
}

interface ParsedHeader {
  labels: string[];
  names: string[];
  delimiter: Delimiter;
  location: HeaderLocation;
}

/**
 * Streams a CSV file into a new table in schema `data` with COPY. The raw bytes go to Postgres's
 * own CSV parser (fast); a byte scanner runs alongside to find ragged rows, bad text and each
 * column's type without building strings. The types are guessed up front so that the rows are
 * written once; the upload is spooled to a temporary file in case a guess proves wrong. Everything
 * happens in one transaction on a dedicated connection, handed back as a StagedUpload.
 */
@Injectable()
export class CsvIngestService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly grants: GrantsService,
  ) {}

  /**
   * Loads the stream into a staged (uncommitted) table; throws CsvRejection for a bad file. With
   * `into`, the columns of the dataset a refresh loads into, the file must have their header and
   * every value must fit its column's type: the table has those types from the start, so nothing
   * is guessed, spooled or read twice, and the first value that does not fit ends the load.
   * Column types chosen in `choice` are held to the same way; they are read once the header has
   * arrived, so a converted file (Parquet) can set its own by then. A dialect other than UTF-8 with dot
   * decimals and ISO dates is turned into that on the way (transcoded, values rewritten).
   */
  async stage(
    source: Readable,
    into?: AssetColumn[],
    choice: DialectChoice = { dialect: {} },
  ): Promise<StagedUpload> {
    const counter = { bytes: 0 };
    const raw = countedChunks(source[Symbol.asyncIterator]() as AsyncIterator<Buffer>, counter);
    const resolved: { encoding?: CsvEncoding } = {};
    const chunks = utf8Chunks(raw, choice.dialect.encoding, resolved);
    let client: Client | undefined;
    try {
      const { head, ended } = await this.readHead(chunks);
      const header = this.parseHeader(head, ended, choice.dialect.delimiter);
      if (into) checkSameHeader(header, into);
      const typed = into ?? chosenColumns(header, choice.columnTypes);
      const dialect: CsvDialect = {
        ...CANONICAL_DIALECT,
        // A new dataset's number style and date order are found in the file, as the form's preview
        // finds them, where the upload does not choose them; a refresh keeps its dataset's dialect.
        ...(into ? {} : numberAndDateStyle(head)),
        ...choice.dialect,
        encoding: resolved.encoding ?? 'utf-8',
        delimiter: header.delimiter,
      };
      const rewrites = columnRewrites(header, typed);
      let first = head.subarray(header.location.dataStart);
      let rest: AsyncIterator<Buffer> = chunks;
      if (CsvNormaliser.rewritesAnything(dialect, rewrites)) {
        rest = normalisedChunks(first, chunks, new CsvNormaliser(dialect, rewrites));
        first = Buffer.alloc(0);
      }
      const assetId = randomUUID();
      const tableName = datasetTableName(assetId);
      client = await this.connect();
      // Committed or rolled back by the StagedUpload this call hands back.
      await client.query('BEGIN');
      await client.query(`SET LOCAL TIME ZONE 'UTC'`);
      const loaded = typed
        ? await this.intoColumns(client, tableName, header, typed, withFirst(first, rest))
        : await this.guessedColumns(client, tableName, header, first, rest);
      if (loaded.rowCount === 0) throw new CsvRejection('The file has a header line but no data rows.');
      // Second fence for a cut-off upload: never stage what the source itself reports as failed.
      if (source.errored) throw source.errored;
      const staged = new StagedUpload(
        client,
        { assetId, tableName, ...loaded, byteCount: counter.bytes, dialect },
        this.grants,
      );
      client = undefined;
      return staged;
    } catch (error) {
      // The source learns the real cause: ending its iterator alone would destroy it with a bare
      // AbortError, which a listener on the stream (multer) could report instead of this error.
      if (!source.destroyed) source.destroy(error as Error);
      await raw.return?.().catch(() => undefined);
      if (client) await client.end().catch(() => undefined);
      throw error;
    }
  }

  /** A connection of its own, so long uploads never hold the app's pool. */
  private async connect(): Promise<Client> {
    // Its COPY runs as fast as the upload arrives: a statement limit of its own, not the pool's.
    const client = dedicatedClient(this.dataSource, 'dataset-ingest', {
      statementMs: LONG_WORK_LIMITS_MS.ingest,
    });
    // An error after a failed COPY must not crash the process; the caller sees it through the query.
    client.on('error', () => undefined);
    await client.connect();
    return client;
  }

  /** Reads until the header record is complete (or the file ends); the BOM is dropped. */
  private async readHead(chunks: AsyncIterator<Buffer>): Promise<{ head: Buffer; ended: boolean }> {
    let head: Buffer = Buffer.alloc(0);
    for (;;) {
      const next = await chunks.next();
      if (next.done) return { head: this.withoutBom(head), ended: true };
      head = head.length === 0 ? next.value : Buffer.concat([head, next.value]);
      if (
        head.length >= 2 &&
        ((head[0] === 0xff && head[1] === 0xfe) || (head[0] === 0xfe && head[1] === 0xff))
      ) {
        throw new CsvRejection('The file is UTF-16 encoded. Save it as UTF-8 CSV and upload it again.', 415);
      }
      if (locateHeader(head)) return { head: this.withoutBom(head), ended: false };
      if (head.length > MAX_HEADER_BYTES) {
        if (head.includes(0)) throw notCsvText();
        if (head.includes(CR)) throw carriageReturnLineBreaks();
        throw new CsvRejection(
          'The first line is longer than 1 MB; this does not look like a CSV file.',
          415,
        );
      }
    }
  }

  private withoutBom(head: Buffer): Buffer {
    return head.subarray(0, 3).equals(UTF8_BOM) ? head.subarray(3) : head;
  }

  private parseHeader(head: Buffer, ended: boolean, chosenDelimiter?: Delimiter): ParsedHeader {
    if (head.toString('latin1').trim() === '') throw new CsvRejection('The file is empty.');
    const location = locateHeader(head);
    const headerEnd = location ? location.headerEnd : head.length;
    const headerBytes = head.subarray(0, headerEnd);
    if (head.subarray(0, Math.min(head.length, 8192)).includes(0)) throw notCsvText();
    if (!isUtf8(headerBytes)) {
      const offset = firstInvalidUtf8Offset(headerBytes);
      const line = 1 + headerBytes.subarray(0, offset).filter((byte) => byte === 0x0a).length;
      throw invalidUtf8(line);
    }
    if (!location) {
      // No LF at all, yet a CR after the first line's text: the lines end in CR alone.
      if (/\r./s.test(headerBytes.toString('latin1').trimEnd())) throw carriageReturnLineBreaks();
      if (ended) throw new CsvRejection('The file has a header line but no data rows.');
      throw new CsvRejection('The header line is incomplete.');
    }
    const text = headerBytes.toString('utf8');
    const delimiter = chosenDelimiter ?? detectDelimiter(text);
    const labels = splitHeader(text, delimiter);
    if (headerLooksLikeData(labels, this.firstDataRow(head, location.dataStart, delimiter, ended))) {
      throw new CsvRejection('The file has no header: line 1 must hold the column names.');
    }
    if (labels.length > MAX_COLUMNS) {
      throw new CsvRejection(`The file has ${labels.length} columns; at most ${MAX_COLUMNS} are supported.`);
    }
    return { labels, names: columnNamesFor(labels), delimiter, location };
  }

  /** Line 2's values when the head already holds all of it, to tell a header from a data row. */
  private firstDataRow(
    head: Buffer,
    dataStart: number,
    delimiter: Delimiter,
    ended: boolean,
  ): string[] | undefined {
    const rest = head.subarray(dataStart);
    const next = locateHeader(rest);
    if (!next && !ended) return undefined;
    const line = rest.subarray(0, next ? next.headerEnd : rest.length);
    return isUtf8(line) ? splitHeader(line.toString('utf8'), delimiter) : undefined;
  }

  /** Into a dataset's columns: their types from the start, each value checked against its column's. */
  private async intoColumns(
    client: Client,
    tableName: string,
    header: ParsedHeader,
    columns: AssetColumn[],
    chunks: AsyncIterable<Buffer>,
  ): Promise<LoadedTable> {
    const scanner = this.scannerFor(header, columns);
    await createTable(client, tableName, columns, 'logged');
    const rowCount = await copyInto(
      client,
      tableName,
      copyFormat(header, columns),
      () => scanned(chunks, scanner),
      columns,
    );
    return { columns, rowCount };
  }

  /**
   * A new dataset's column types, guessed: the typed pass, and when its guess proves wrong, the
   * text pass from the spooled copy of the upload.
   */
  private async guessedColumns(
    client: Client,
    tableName: string,
    header: ParsedHeader,
    first: Buffer,
    chunks: AsyncIterator<Buffer>,
  ): Promise<LoadedTable> {
    const spool = await UploadSpool.open();
    try {
      const reader = new SpooledReader(first, chunks, spool);
      const loaded = await this.typedPass(client, tableName, header, reader);
      if (loaded !== 'replay') return loaded;
      await reader.drain();
      if (!(await spool.complete())) throw new ServiceUnavailableException(SPOOL_UNAVAILABLE);
      return await this.textPass(client, tableName, header, spool);
    } finally {
      await spool.close();
    }
  }

  /**
   * First pass: the column types are guessed from the file's first SAMPLE_BYTES (all of a small
   * file), the table is created with them and the upload's bytes go straight into COPY, as fast
   * as Postgres can take them. The scanner keeps narrowing the types over the whole file; the
   * pass stands only if they end where the guess was. A column empty in the sample is typed
   * afterwards with ALTER; any other miss (a value COPY refused, or one COPY took but the
   * scanner would keep as text, like 007 in a number column) answers 'replay'.
   */
  private async typedPass(
    client: Client,
    tableName: string,
    header: ParsedHeader,
    reader: SpooledReader,
  ): Promise<LoadedTable | 'replay'> {
    const scanner = this.scannerFor(header);
    const sample: Buffer[] = [];
    let sampled = 0;
    let ended = false;
    while (!ended && sampled < SAMPLE_BYTES) {
      const chunk = await reader.next();
      if (chunk) {
        scanner.feed(chunk, (part) => sample.push(part));
        sampled += chunk.length;
      } else ended = true;
    }
    if (ended) scanner.finish();
    const guessed = this.columnsFrom(header, scanner);
    await client.query('SAVEPOINT typed_copy');
    await createTable(client, tableName, guessed, 'logged');
    async function* dataBytes(): AsyncGenerator<Buffer> {
      yield* sample.splice(0);
      if (!ended) yield* scanned(reader.remaining(), scanner);
    }
    let rowCount: number;
    try {
      rowCount = await copyInto(client, tableName, copyFormat(header, guessed), dataBytes);
    } catch (error) {
      if (!isTypeMismatch(error)) throw error;
      await client.query('ROLLBACK TO SAVEPOINT typed_copy');
      return 'replay';
    }
    const columns = this.columnsFrom(header, scanner);
    const typedLate: AssetColumn[] = [];
    for (const [index, column] of columns.entries()) {
      if (column.type === guessed[index].type) continue;
      if (guessed[index].type !== 'text') {
        await client.query('ROLLBACK TO SAVEPOINT typed_copy');
        return 'replay';
      }
      typedLate.push(column);
    }
    await convertColumnTypes(client, tableName, typedLate, 'logged');
    await client.query('RELEASE SAVEPOINT typed_copy');
    return { columns, rowCount };
  }

  /**
   * Second pass, from the spooled copy: every column is loaded as text into an UNLOGGED table,
   * then one ALTER TABLE types the columns and makes the table logged (rows reach the WAL once).
   */
  private async textPass(
    client: Client,
    tableName: string,
    header: ParsedHeader,
    spool: UploadSpool,
  ): Promise<LoadedTable> {
    const scanner = this.scannerFor(header);
    const textColumns = this.columnsFrom(header, scanner).map((column) => ({
      ...column,
      type: 'text' as const,
    }));
    await createTable(client, tableName, textColumns, 'unlogged');
    const rowCount = await copyInto(client, tableName, copyFormat(header, textColumns), () =>
      scanned(spool.read(), scanner),
    );
    const columns = this.columnsFrom(header, scanner);
    await convertColumnTypes(client, tableName, columns, 'unlogged');
    return { columns, rowCount };
  }

  private scannerFor(header: ParsedHeader, expected?: AssetColumn[]): CsvScanner {
    return new CsvScanner({
      delimiter: header.delimiter,
      columnCount: header.names.length,
      labels: header.names.map((_, index) => labelOf(header, index)),
      lineEnding: header.location.lineEnding,
      firstLine: header.location.lines + 1,
      expected,
    });
  }

  /** The columns with the types the scanner allows so far. */
  private columnsFrom(header: ParsedHeader, scanner: CsvScanner): AssetColumn[] {
    return header.names.map<AssetColumn>((name, index) => ({
      name,
      label: labelOf(header, index),
      type: columnTypeFor(scanner.kinds[index], scanner.sawValue[index] === 1),
    }));
  }
}

function labelOf(header: ParsedHeader, index: number): string {
  return header.labels[index] || `Column ${index + 1}`;
}

/** A refresh's file must have the dataset's header: the same columns, in the same order. */
function checkSameHeader(header: ParsedHeader, columns: AssetColumn[]): void {
  const same =
    header.names.length === columns.length &&
    header.names.every((name, index) => name === columns[index].name);
  if (same) return;
  const fileLabels = header.names.map((_, index) => labelOf(header, index)).join(', ');
  throw new CsvRejection(
    `The file's columns (${fileLabels}) are not the dataset's (${columns.map((column) => column.label).join(', ')}). ` +
      'A refresh needs the same header.',
  );
}

/** A new dataset's columns with the types the uploader chose, one per column of the file. */
function chosenColumns(
  header: ParsedHeader,
  types: AssetColumn['type'][] | undefined,
): AssetColumn[] | undefined {
  if (!types) return undefined;
  if (types.length !== header.names.length) {
    throw new CsvRejection(
      `column_types lists ${types.length} ${types.length === 1 ? 'type' : 'types'}, but the file has ${header.names.length} columns.`,
    );
  }
  return header.names.map((name, index) => ({ name, label: labelOf(header, index), type: types[index] }));
}

/** Which values each column may need rewritten: by its type when known, else any number or date. */
function columnRewrites(header: ParsedHeader, columns: AssetColumn[] | undefined): ColumnRewrites[] {
  return header.names.map((_, index) => {
    const type = columns?.[index].type;
    if (!type) return { numbers: true, dates: true };
    return {
      numbers: type === 'integer' || type === 'numeric',
      dates: type === 'date' || type === 'timestamp' || type === 'timestamptz',
    };
  });
}

/** The data bytes already read with the header, then the rest of the upload. */
async function* withFirst(first: Buffer, chunks: AsyncIterator<Buffer>): AsyncGenerator<Buffer> {
  if (first.length > 0) yield first;
  for (let next = await chunks.next(); !next.done; next = await chunks.next()) yield next.value;
}

/** How COPY reads the file into a table with these columns. */
function copyFormat(header: ParsedHeader, columns: AssetColumn[]): CopyFormat {
  return {
    names: header.names,
    delimiter: header.delimiter,
    headerLines: header.location.lines,
    typedNames: columns.filter((column) => column.type !== 'text').map((column) => column.name),
  };
}

/** The bytes COPY should receive from `chunks`, each chunk scanned on the way; checks the end. */
async function* scanned(chunks: AsyncIterable<Buffer>, scanner: CsvScanner): AsyncGenerator<Buffer> {
  const parts: Buffer[] = [];
  for await (const chunk of chunks) {
    scanner.feed(chunk, (part) => parts.push(part));
    yield* parts.splice(0);
  }
  scanner.finish();
}

/** The same chunks, adding each one's size to `counter.bytes` (the size of the file as uploaded). */
function countedChunks(chunks: AsyncIterator<Buffer>, counter: { bytes: number }): AsyncIterator<Buffer> {
  return {
    next: async () => {
      const next = await chunks.next();
      if (!next.done) counter.bytes += next.value.length;
      return next;
    },
    return: chunks.return ? (value?: unknown) => chunks.return!(value) : undefined,
  };
}

/** The decimal mark, thousands separator and date order the upload form's preview detects in this head. */
function numberAndDateStyle(head: Buffer): Pick<CsvDialect, 'decimal' | 'thousands' | 'dateOrder'> {
  const { decimal, thousands, dateOrder } = detectDialect(head, 'utf-8');
  return { decimal, thousands, dateOrder };
}
