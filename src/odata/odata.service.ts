import type { Writable } from 'node:stream';
import { Inject, Injectable, NotFoundException } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { ReadReplica } from '../database/read-replica.service';
import type { Caller } from '../access/access-gate.service';
import { APP_CONFIG, AppConfig } from '../config/app-config';
import { createColumnIndex, hasColumnIndex } from '../database/data-tables/data-table-ddl';
import { isReadableName } from '../database/data-tables/readable-name';
import { pgPool, Sql, sqlOn, transactionOn } from '../database/sql';
import { copyOut, STREAM_SETTINGS } from '../stream/copy-out';
import { JsonRowsEnvelope, JsonRowsTransform } from '../stream/json-array.transform';
import { JSON_LINES_COPY_OPTIONS } from '../stream/stream-sql';
import { StreamAccessService } from '../stream/stream-access.service';
import { EntitySet, ROW_NUMBER_KEY, sourceReferenceOf, toEntitySet } from './odata-entity-set';
import { metadataDocument, serviceDocument } from './odata-metadata';
import { filterValueSettings } from './odata-filter-sql';
import {
  countStatement,
  nextSkipToken,
  PAGE_TRAILER_MARK,
  PagePosition,
  pageStatement,
  readSkipToken,
  Statement,
} from './odata-page-sql';
import { badOption, QueryOptions } from './odata-query-options';
import { DatasetActivityService } from '../assets/activity/dataset-activity.service';

/**
 * Rows per page unless the client prefers fewer (Prefer: odata.maxpagesize), which is also the most
 * it may ask for. BI tools follow next links without asking for a size, so this is their page. A
 * page streams with flat memory whatever its size, while each page costs a request's fixed work
 * (key, rate limit, access, plan) and, across a real network, at least one round trip: a million
 * rows are 20 requests rather than 100.
 */
export const ODATA_PAGE_SIZE = 50_000;
export const ODATA_MAX_PAGE_SIZE = ODATA_PAGE_SIZE;
export const ODATA_PATH = '/api/odata';

/** A collection request as the controller hands it over. */
export interface CollectionRequest {
  entitySet: string;
  options: QueryOptions;
  /** The request's own query parameters, carried into the next-page link. */
  query: Record<string, unknown>;
  preferredPageSize?: number;
}

/** Where a page goes: the response, and what sets its headers once the answer is certain. */
export interface PageDestination {
  response: Writable;
  /** Called before the first byte, with the page size applied when the client asked for one. */
  onStart(appliedPageSize: number | undefined): void;
}

/**
 * The read-only OData v4 service over what an API key's owner may read: the service document,
 * `$metadata` and one entity set per held dataset and owned connector table. Which tables those
 * are is the AccessGate's answer (through StreamAccessService), so a table the key may not read
 * is absent from every document and answers 404 like a missing one.
 */
@Injectable()
export class ODataService {
  /** `<table>.<column>` of dataset indexes known to exist, so later pages skip asking. */
  private readonly knownIndexes = new Set<string>();

  constructor(
    private readonly dataSource: DataSource,
    private readonly reads: ReadReplica,
    private readonly access: StreamAccessService,
    private readonly activity: DatasetActivityService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  get serviceRoot(): string {
    return `${this.config.appOrigin}${ODATA_PATH}`;
  }

  async serviceDocument(caller: Caller): Promise<object> {
    return serviceDocument(this.serviceRoot, await this.entitySets(caller));
  }

  async metadata(caller: Caller): Promise<string> {
    return metadataDocument(await this.entitySets(caller));
  }

  /** `/<set>/$count`: how many rows the filter keeps. */
  async count(caller: Caller, entitySet: string, options: QueryOptions): Promise<string> {
    const set = await this.entitySet(caller, entitySet);
    const statement = countStatement(set, options.filter);
    return asFilterValueError(
      this.read(statement, async (sql) => (await sql<{ count: string }>(statement.text)).rows[0].count),
    );
  }

  /**
   * One page of an entity set, with `@odata.nextLink` while rows are left, streamed to the
   * response as Postgres produces the rows (with back-pressure): the API holds a few buffers,
   * never the page.
   */
  async page(caller: Caller, request: CollectionRequest, destination: PageDestination): Promise<void> {
    const set = await this.entitySet(caller, request.entitySet);
    const { options } = request;
    const position = readSkipToken(options.skipToken);
    // A read counts once in the owner's activity, as a stream link's request does: on its first page.
    if (options.skipToken === undefined && set.source.kind === 'asset') {
      this.activity.countStreamRequest(set.source.id);
    }
    const pageSize = Math.min(request.preferredPageSize ?? ODATA_PAGE_SIZE, ODATA_MAX_PAGE_SIZE);
    const wanted = options.top === undefined ? pageSize : Math.min(pageSize, options.top - position.emitted);
    const limit = Math.max(wanted, 0);
    const numbered =
      set.key.name === ROW_NUMBER_KEY && (!options.select || options.select.includes(ROW_NUMBER_KEY));
    const statement = pageStatement(
      set,
      options,
      position,
      limit,
      numbered ? options.skip + position.emitted : undefined,
    );
    await this.ensureIndexes(set, statement.indexColumns);
    const counting = options.count ? countStatement(set, options.filter) : undefined;
    let total: string | undefined;
    const envelope = this.pageEnvelope(set, request, statement.keyset, { position, limit }, () => total);
    const appliedPageSize = request.preferredPageSize === undefined ? undefined : pageSize;
    const prepare = async (sql: Sql) => {
      await setFilterValues(sql, statement.values);
      if (counting) total = (await sql<{ count: string }>(counting.text)).rows[0].count;
    };
    const copySql = `COPY (${statement.text}) TO STDOUT ${JSON_LINES_COPY_OPTIONS}`;
    await asFilterValueError(
      copyOut(pgPool(this.reads.forReads()), copySql, destination.response, {
        tables: [set.source.tableName],
        reader: caller?.id,
        prepare,
        transform: new JsonRowsTransform(envelope, PAGE_TRAILER_MARK),
        onStart: () => destination.onStart(appliedPageSize),
      }),
    );
  }

  /**
   * What a page's rows go out inside: the context and count first, the next-page link last. A
   * trailer from the page statement means a row beyond the page exists; `$top` may still end the
   * read here.
   */
  private pageEnvelope(
    set: EntitySet,
    request: CollectionRequest,
    keyset: boolean,
    page: { position: PagePosition; limit: number },
    total: () => string | undefined,
  ): JsonRowsEnvelope {
    const { top } = request.options;
    const emitted = page.position.emitted + page.limit;
    return {
      open: () => {
        const count = total();
        return (
          `{"@odata.context":${JSON.stringify(`${this.serviceRoot}/$metadata#${set.name}`)}` +
          (count !== undefined ? `,"@odata.count":${countJson(count, request.options)}` : '') +
          ',"value":['
        );
      },
      close: (trailer) => {
        const more = trailer !== undefined && (top === undefined || emitted < top);
        if (!more) return ']}';
        const skipToken = nextSkipToken(keyset, { emitted }, trailer || undefined);
        return `],"@odata.nextLink":${JSON.stringify(this.nextLink(set, request.query, skipToken))}}`;
      },
    };
  }

  /** Every readable table as an entity set (a connector that never ran has no table yet, so none). */
  private async entitySets(caller: Caller): Promise<EntitySet[]> {
    const sources = await this.access.readableSources(caller);
    return sources.filter((source) => source.columns.length > 0).map(toEntitySet);
  }

  /** The entity set by its readable name, else by its former name (saved queries keep working). */
  private async entitySet(caller: Caller, name: string): Promise<EntitySet> {
    let source = isReadableName(name) ? await this.access.findReadableSource(caller, name) : null;
    const formerReference = source ? null : sourceReferenceOf(name);
    if (formerReference) source = await this.access.findReadableSource(caller, formerReference);
    if (!source || source.columns.length === 0) throw new NotFoundException(`No entity set named ${name}`);
    return toEntitySet(source);
  }

  /** The request again with the next `$skiptoken`; every other parameter (the key too, if it came in the URL) stays. */
  private nextLink(set: EntitySet, query: Record<string, unknown>, skipToken: string): string {
    const parameters: string[] = [];
    for (const [name, value] of Object.entries(query)) {
      if (name.toLowerCase() === '$skiptoken') continue;
      for (const item of Array.isArray(value) ? value : [value]) {
        if (typeof item === 'string') parameters.push(`${encodeParameter(name)}=${encodeParameter(item)}`);
      }
    }
    parameters.push(`$skiptoken=${encodeParameter(skipToken)}`);
    return `${this.serviceRoot}/${set.name}?${parameters.join('&')}`;
  }

  /**
   * Indexes a read can use: the row id that pages follow, and date/time columns bounded by the
   * filter (incremental refresh). Built once, on the first read that needs one.
   */
  private async ensureIndexes(set: EntitySet, columns: string[]): Promise<void> {
    const { tableName, kind } = set.source;
    const missing = [...new Set(columns)].filter(
      (column) => !this.knownIndexes.has(`${tableName}.${column}`),
    );
    if (missing.length === 0) return;
    const client = await pgPool(this.dataSource).connect();
    try {
      const sql = sqlOn(client);
      for (const column of missing) {
        if (!(await hasColumnIndex(sql, tableName, column))) {
          await transactionOn(client, () => createColumnIndex(sql, tableName, column));
        }
        // A dataset table keeps its indexes for good; a connector table is replaced by its runs, so it is asked again.
        if (kind === 'asset') this.knownIndexes.add(`${tableName}.${column}`);
      }
    } finally {
      client.release();
    }
  }

  /** A statement in one read-only transaction with the stream settings (UTC, ISO dates). */
  private async read<T>(statement: Statement, work: (sql: Sql) => Promise<T>): Promise<T> {
    const client = await pgPool(this.reads.forReads()).connect();
    try {
      // One round trip for both: the statements carry no parameters.
      await client.query(`BEGIN READ ONLY; ${STREAM_SETTINGS}`);
      const sql = sqlOn(client);
      await setFilterValues(sql, statement.values);
      const result = await work(sql);
      await client.query('COMMIT');
      return result;
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw error;
    } finally {
      client.release();
    }
  }
}

async function setFilterValues(sql: Sql, values: string[]): Promise<void> {
  const settings = filterValueSettings(values);
  if (settings) await sql(settings.text, settings.values);
}

/** Class 22: a value in the filter Postgres cannot read as its column's type (2024-02-30, 1e999); 400. */
async function asFilterValueError<T>(work: Promise<T>): Promise<T> {
  try {
    return await work;
  } catch (error) {
    if (String((error as { code?: unknown }).code ?? '').startsWith('22')) {
      throw badOption(`A value in $filter is not valid: ${(error as Error).message}`);
    }
    throw error;
  }
}

/** The count is an Edm.Int64 too: a string for IEEE754Compatible clients. */
function countJson(count: string, options: QueryOptions): string {
  return options.ieee754Compatible ? JSON.stringify(count) : count;
}

/** Percent-encodes a query parameter, keeping `$` readable in option names. */
function encodeParameter(text: string): string {
  return encodeURIComponent(text).replace(/%24/g, '$');
}
