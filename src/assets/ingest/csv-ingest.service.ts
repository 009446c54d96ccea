import { randomUUID } from 'node:crypto';
import { isUtf8 } from 'node:buffer';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { Injectable } from '@nestjs/common';
import { Client } from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import { DataSource } from 'typeorm';
import { AccessService } from '../../access/access.service';
import type { AssetColumn } from '../entities/asset.entity';
import { datasetTable, quoteIdentifier } from '../dataset-table';
import { describeCopyError } from './copy-errors';
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
import { StagedUpload } from './staged-upload';
import { firstInvalidUtf8Offset } from './utf8-guard';
import { columnTypeFor, sqlTypeFor } from './value-kinds';

const MAX_HEADER_BYTES = 1024 * 1024;
// Postgres allows 1600 columns per table; keep room for the row id.
const MAX_COLUMNS = 1500;
const UTF8_BOM = Buffer.from([0xef, 0xbb, 0xbf]);
const CR = 0x0d;

interface ParsedHeader {
  labels: string[];
  names: string[];
  delimiter: ',' | ';' | '\t';
  location: HeaderLocation;
}

/**
 * Streams a CSV file into a new table in schema `data` with COPY, typing the columns afterwards.
 * The raw bytes go to Postgres's own CSV parser (fast); a byte scanner runs alongside to find
 * ragged rows, bad text and each column's type without building strings. Everything happens
 * in one transaction on a dedicated connection, handed back as a StagedUpload.
 */
@Injectable()
export class CsvIngestService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly access: AccessService,
  ) {}

  /** Loads the stream into a staged (uncommitted) table; throws CsvRejection for a bad file. */
  async stage(source: Readable): Promise<StagedUpload> {
    const chunks = source[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
    let client: Client | undefined;
    try {
      const { head, ended } = await this.readHead(chunks);
      const header = this.parseHeader(head, ended);
      const assetId = randomUUID();
      const tableName = `ds_${assetId.replace(/-/g, '')}`;
      client = await this.connect();
      await client.query('BEGIN');
      await client.query(`SET LOCAL TIME ZONE 'UTC'`);
      const scanner = new CsvScanner({
        delimiter: header.delimiter,
        columnCount: header.names.length,
        lineEnding: header.location.lineEnding,
        firstLine: header.location.lines + 1,
      });
      const rowCount = await this.copyRows(client, tableName, header, head, chunks, scanner).catch(
        (error) => {
          throw describeCopyError(error, header.location.lines) ?? error;
        },
      );
      if (rowCount === 0) throw new CsvRejection('The file has a header line but no data rows.');
      const columns = header.names.map<AssetColumn>((name, index) => ({
        name,
        label: header.labels[index] || `Column ${index + 1}`,
        type: columnTypeFor(scanner.kinds[index], scanner.sawValue[index] === 1),
      }));
      await this.convertColumnTypes(client, tableName, columns);
      const staged = new StagedUpload(client, { assetId, tableName, columns, rowCount }, this.access);
      client = undefined;
      return staged;
    } catch (error) {
      // The source learns the real cause: ending its iterator alone would destroy it with a bare
      // AbortError, which a listener on the stream (multer) could report instead of this error.
      if (!source.destroyed) source.destroy(error as Error);
      await chunks.return?.().catch(() => undefined);
      if (client) await client.end().catch(() => undefined);
      throw error;
    }
  }

  /** A connection of its own, so long uploads never hold the app's pool. */
  private async connect(): Promise<Client> {
    const { url } = this.dataSource.options as { url?: string };
    const client = new Client({ connectionString: url, application_name: 'dataset-ingest' });
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

  private parseHeader(head: Buffer, ended: boolean): ParsedHeader {
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
    const delimiter = detectDelimiter(text);
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

  /**
   * Creates the table with text columns and pipes the data bytes into COPY; returns the row count.
   * The table starts UNLOGGED: the text copy is only an intermediate state, and the ALTER TABLE
   * that types it writes the rows to the WAL once (SET LOGGED), instead of once per pass.
   */
  private async copyRows(
    client: Client,
    tableName: string,
    header: ParsedHeader,
    head: Buffer,
    chunks: AsyncIterator<Buffer>,
    scanner: CsvScanner,
  ): Promise<number> {
    const table = datasetTable(tableName);
    const columnList = header.names.map(quoteIdentifier).join(', ');
    await client.query(
      `CREATE UNLOGGED TABLE ${table} (_row_id bigint GENERATED ALWAYS AS IDENTITY (CACHE 1000), ${header.names
        .map((name) => `${quoteIdentifier(name)} text`)
        .join(', ')})`,
    );
    const delimiter = header.delimiter === '\t' ? `E'\\t'` : `'${header.delimiter}'`;
    const copy = client.query(
      copyFrom(
        `COPY ${table} (${columnList}) FROM STDIN WITH (FORMAT csv, DELIMITER ${delimiter}, NULL '', FORCE_NULL (${columnList}))`,
      ),
    );
    const rest = head.subarray(header.location.dataStart);
    async function* dataBytes(): AsyncGenerator<Buffer> {
      const parts: Buffer[] = [];
      const forward = (part: Buffer) => parts.push(part);
      if (rest.length > 0) scanner.feed(rest, forward);
      for (;;) {
        for (const part of parts) yield part;
        parts.length = 0;
        const next = await chunks.next();
        if (next.done) break;
        scanner.feed(next.value, forward);
      }
      scanner.finish();
    }
    await pipeline(dataBytes, copy);
    return copy.rowCount;
  }

  /**
   * Retypes every non-text column and makes the table logged in one ALTER TABLE (one table
   * rewrite). Should a cast still fail (a value the scanner could not rule out, like 2023-02-30),
   * each column is tried on its own and the ones that do not fit stay text.
   */
  private async convertColumnTypes(client: Client, tableName: string, columns: AssetColumn[]): Promise<void> {
    const typed = columns.filter((column) => column.type !== 'text');
    const table = datasetTable(tableName);
    const alter = (column: AssetColumn) => {
      const sqlType = sqlTypeFor(column.type);
      const name = quoteIdentifier(column.name);
      return `ALTER COLUMN ${name} TYPE ${sqlType} USING ${name}::${sqlType}`;
    };
    await client.query('SAVEPOINT retype_all');
    try {
      await client.query(`ALTER TABLE ${table} ${['SET LOGGED', ...typed.map(alter)].join(', ')}`);
      await client.query('RELEASE SAVEPOINT retype_all');
      return;
    } catch {
      await client.query('ROLLBACK TO SAVEPOINT retype_all');
    }
    await client.query(`ALTER TABLE ${table} SET LOGGED`);
    for (const column of typed) {
      await client.query('SAVEPOINT retype_one');
      try {
        await client.query(`ALTER TABLE ${table} ${alter(column)}`);
        await client.query('RELEASE SAVEPOINT retype_one');
      } catch {
        await client.query('ROLLBACK TO SAVEPOINT retype_one');
        column.type = 'text';
      }
    }
  }
}
