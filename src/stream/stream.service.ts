import { BadRequestException, Injectable, NotFoundException } from '@nestjs/common';
import type { Response } from 'express';
import { DataSource } from 'typeorm';
import { ReadReplica } from '../database/read-replica.service';
import { DATASET_NOT_FOUND, type Caller } from '../access/access-gate.service';
import { displayType } from '../database/data-tables/data-table-catalog';
import {
  FilterColumnType,
  literalBinder,
  parseRowFilters,
  RowFilter,
  rowFilterCondition,
  RowFilterError,
} from '../database/data-tables/row-filters';
import { pgPool } from '../database/sql';
import { DatasetActivityService } from '../assets/activity/dataset-activity.service';
import { copyOut } from './copy-out';
import { JsonArrayTransform } from './json-array.transform';
import { StreamAccessService } from './stream-access.service';
import { typedDownload } from './typed-download';
import { answerCompression, type ParquetCompression } from '../formats/writers/parquet-compression';
import {
  columnLabel,
  csvHeaderLine,
  generalCsvCopy,
  generalCsvLabels,
  generalJsonCopy,
  sourceCsvCopy,
  sourceJsonCopy,
} from './stream-sql';
import { isTypedFormat, type StreamFormat, type StreamPage, type StreamSource } from './stream-source';

/** Parquet and Excel files have one set of typed columns, which the datasets of the general link do not share. */
export const TYPED_FORMATS_NEED_ONE_SOURCE =
  'format=parquet and format=xlsx are for the link of one dataset or table: stream/data/{table name}.';

export const NO_COLUMNS_YET = 'This table has no columns yet: it is filled by its first connector run.';

/** The general stream link answers at most this many rows. */
export const GENERAL_STREAM_MAX_ROWS = 5000;

export interface StreamRequest extends StreamPage {
  format: StreamFormat;
  /** How a Parquet file's pages are compressed (the default when left out); Parquet only. */
  compression?: ParquetCompression;
  /** Row filters (column:operator:value), one source only. */
  filter?: string[];
}

/** Streams whole tables to BI tools straight out of Postgres (COPY), never holding rows in memory. */
@Injectable()
export class StreamService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly reads: ReadReplica,
    private readonly access: StreamAccessService,
    private readonly activity: DatasetActivityService,
  ) {}

  /** Every row of one dataset or connector instance table the user may read, downloaded as its readable name. */
  async streamSource(
    caller: Caller,
    reference: string,
    request: StreamRequest,
    response: Response,
  ): Promise<void> {
    const compression = answerCompression(request.format, request.compression);
    const source = await this.access.findReadableSource(caller, reference);
    if (!source) throw new NotFoundException(DATASET_NOT_FOUND);
    if (source.kind === 'asset') this.activity.countStreamRequest(source.id);
    if (source.columns.length === 0) {
      // No table yet (a connector that never ran): a typed file needs columns to describe.
      if (isTypedFormat(request.format)) throw new NotFoundException(NO_COLUMNS_YET);
      return this.sendEmpty(response, request.format, [], source.readableName);
    }
    const where = rowFilterCondition(filtersOf(request.filter, source), literalBinder);
    const page = { limit: request.limit, offset: request.offset };
    if (isTypedFormat(request.format)) {
      const download = typedDownload(source, request.format, page, where, compression);
      await copyOut(pgPool(this.dataSource), download.copySql, response, {
        tables: [source.tableName],
        reader: caller?.id,
        prepare: download.prepare,
        beside: download.beside,
        transform: download.transform,
        onStart: () => setStreamHeaders(response, request.format, source.readableName),
      });
    } else if (request.format === 'csv') {
      await this.copy(response, sourceCsvCopy(source, page, where), 'csv', source.readableName, {
        tables: [source.tableName],
        reader: caller?.id,
        prefix: csvHeaderLine(source.columns.map(columnLabel)),
      });
    } else {
      await this.copy(response, sourceJsonCopy(source, page, where), request.format, source.readableName, {
        tables: [source.tableName],
        reader: caller?.id,
      });
    }
  }

  /** The general link: rows of every dataset the user holds, tagged with its id and title, capped. */
  async streamHeldDatasets(caller: Caller, request: StreamRequest, response: Response): Promise<void> {
    answerCompression(request.format, request.compression);
    if (request.filter?.length) {
      throw new BadRequestException('Filters apply to the link of one dataset: stream/data/{id}.');
    }
    if (isTypedFormat(request.format)) {
      throw new BadRequestException(TYPED_FORMATS_NEED_ONE_SOURCE);
    }
    const sources = (await this.access.heldDatasets(caller)).filter((source) => source.columns.length > 0);
    // The cap covers the whole result, not each page: paging past row 5,000 answers nothing more.
    const rowsLeft = Math.max(GENERAL_STREAM_MAX_ROWS - request.offset, 0);
    const limit = Math.min(request.limit ?? rowsLeft, rowsLeft);
    const page = { limit, offset: request.offset };
    if (sources.length === 0 || limit === 0) {
      return this.sendEmpty(response, request.format, generalCsvLabels(sources), 'datasets');
    }
    if (request.format === 'csv') {
      await this.copy(response, generalCsvCopy(sources, page), 'csv', 'datasets', {
        tables: sources.map((source) => source.tableName),
        reader: caller?.id,
        prefix: csvHeaderLine(generalCsvLabels(sources)),
      });
    } else {
      await this.copy(response, generalJsonCopy(sources, page), request.format, 'datasets', {
        tables: sources.map((source) => source.tableName),
        reader: caller?.id,
      });
    }
  }

  private async copy(
    response: Response,
    copySql: string,
    format: StreamFormat,
    name: string,
    options: { tables: string[]; prefix?: string; reader?: string },
  ): Promise<void> {
    await copyOut(pgPool(this.reads.forReads()), copySql, response, {
      tables: options.tables,
      prefix: options.prefix,
      reader: options.reader,
      // COPY already writes one JSON object per line: JSON Lines go out byte for byte.
      transform: format === 'json' ? new JsonArrayTransform() : undefined,
      onStart: () => setStreamHeaders(response, format, name),
    });
  }

  private sendEmpty(response: Response, format: StreamFormat, labels: string[], name: string): void {
    setStreamHeaders(response, format, name);
    if (format === 'json') response.end('[]');
    else if (format === 'csv' && labels.length > 0) response.end(csvHeaderLine(labels));
    else response.end();
  }
}

const FILE_EXTENSIONS: Record<StreamFormat, string> = {
  csv: 'csv',
  json: 'json',
  ndjson: 'jsonl',
  parquet: 'parquet',
  xlsx: 'xlsx',
};

const CONTENT_TYPES: Record<StreamFormat, string> = {
  csv: 'text/csv; charset=utf-8',
  json: 'application/json; charset=utf-8',
  ndjson: 'application/x-ndjson; charset=utf-8',
  parquet: 'application/vnd.apache.parquet',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
};

/**
 * `name` (a readable table name, or `datasets` for the general link) names the file a browser or
 * tool saves; it needs no escaping inside the quoted header value.
 */
function setStreamHeaders(response: Response, format: StreamFormat, name: string): void {
  response.status(200);
  response.setHeader('Cache-Control', 'no-store');
  // Binary files are saved, not shown: a browser opening the link downloads them.
  const disposition = isTypedFormat(format) ? 'attachment' : 'inline';
  response.setHeader('Content-Disposition', `${disposition}; filename="${name}.${FILE_EXTENSIONS[format]}"`);
  response.setHeader('Content-Type', CONTENT_TYPES[format]);
}

/** The request's filters on the source's real columns; a wrong one answers 400 with its reason. */
function filtersOf(raw: string[] | undefined, source: StreamSource): RowFilter[] {
  const columns = source.columns.map((column) => ({
    name: column.name,
    type: displayType(column.pgType) as FilterColumnType,
  }));
  try {
    return parseRowFilters(raw, columns);
  } catch (error) {
    if (error instanceof RowFilterError) throw new BadRequestException(error.message);
    throw error;
  }
}
