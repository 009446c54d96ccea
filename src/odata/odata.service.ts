import { Inject, Injectable, NotFoundException } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { Caller } from '../access/access-gate.service';
import { APP_CONFIG, AppConfig } from '../config/app-config';
import { createColumnIndex, hasColumnIndex } from '../database/data-tables/data-table-ddl';
import { pgPool, Sql, sqlOn, transactionOn } from '../database/sql';
import { STREAM_SETTINGS } from '../stream/copy-out';
import { StreamAccessService } from '../stream/stream-access.service';
import { EntitySet, ROW_NUMBER_KEY, sourceReferenceOf, toEntitySet } from './odata-entity-set';
import { metadataDocument, serviceDocument } from './odata-metadata';
import {
  countStatement,
  nextSkipToken,
  pageBodyStatement,
  pageStatement,
  readSkipToken,
} from './odata-page-sql';
import { badOption, QueryOptions } from './odata-query-options';

/** Rows per page unless the client prefers fewer (Prefer: odata.maxpagesize), and the most it may ask for. */
export const ODATA_PAGE_SIZE = 10_000;
export const ODATA_MAX_PAGE_SIZE = 50_000;
export const ODATA_PATH = '/api/odata';

/** One answered page: the JSON body, and the page size applied when the client asked for one. */
export interface ODataPage {
  body: string;
  appliedPageSize?: number;
}

/** A collection request as the controller hands it over. */
export interface CollectionRequest {
  entitySet: string;
  options: QueryOptions;
  /** The request's own query parameters, carried into the next-page link. */
  query: Record<string, unknown>;
  preferredPageSize?: number;
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
    private readonly access: StreamAccessService,
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
    return this.read(
      async (sql) => (await sql<{ count: string }>(statement.text, statement.values)).rows[0].count,
    );
  }

  /** One page of an entity set, with `@odata.nextLink` while rows are left. */
  async page(caller: Caller, request: CollectionRequest): Promise<ODataPage> {
    const set = await this.entitySet(caller, request.entitySet);
    const { options } = request;
    const position = readSkipToken(options.skipToken);
    const pageSize = Math.min(request.preferredPageSize ?? ODATA_PAGE_SIZE, ODATA_MAX_PAGE_SIZE);
    const wanted = options.top === undefined ? pageSize : Math.min(pageSize, options.top - position.emitted);
    const limit = Math.max(wanted, 0);
    const statement = pageStatement(set, options, position, limit + 1);
    await this.ensureIndexes(set, statement.indexColumns);
    const counting = options.count ? countStatement(set, options.filter) : undefined;
    const numbered =
      set.key.name === ROW_NUMBER_KEY && (!options.select || options.select.includes(ROW_NUMBER_KEY));
    const bodyStatement = pageBodyStatement(
      statement,
      limit,
      numbered ? options.skip + position.emitted : undefined,
    );
    const { page, total } = await this.read(async (sql) => ({
      total: counting
        ? (await sql<{ count: string }>(counting.text, counting.values)).rows[0].count
        : undefined,
      page:
        limit > 0
          ? (
              await sql<{ found: number; body: string; last_key: string | null }>(
                bodyStatement.text,
                bodyStatement.values,
              )
            ).rows[0]
          : { found: 0, body: '', last_key: null },
    }));
    const more = page.found > limit && (options.top === undefined || position.emitted + limit < options.top);
    const emitted = position.emitted + Math.min(page.found, limit);
    const nextLink = more
      ? this.nextLink(
          set,
          request.query,
          nextSkipToken(statement.keyset, { emitted }, page.last_key ?? undefined),
        )
      : undefined;
    const body =
      `{"@odata.context":${JSON.stringify(`${this.serviceRoot}/$metadata#${set.name}`)}` +
      (total !== undefined ? `,"@odata.count":${total}` : '') +
      `,"value":[${page.body}]` +
      (nextLink ? `,"@odata.nextLink":${JSON.stringify(nextLink)}` : '') +
      '}';
    return { body, appliedPageSize: request.preferredPageSize === undefined ? undefined : pageSize };
  }

  /** Every readable table as an entity set (a connector that never ran has no table yet, so none). */
  private async entitySets(caller: Caller): Promise<EntitySet[]> {
    const sources = await this.access.readableSources(caller);
    return sources.filter((source) => source.columns.length > 0).map(toEntitySet);
  }

  private async entitySet(caller: Caller, name: string): Promise<EntitySet> {
    const reference = sourceReferenceOf(name);
    const source = reference ? await this.access.findReadableSource(caller, reference) : null;
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

  /** Work in one read-only transaction with the stream settings (UTC, ISO dates); bad values answer 400. */
  private async read<T>(work: (sql: Sql) => Promise<T>): Promise<T> {
    const client = await pgPool(this.dataSource).connect();
    try {
      // One round trip for both: the statements carry no parameters.
      await client.query(`BEGIN READ ONLY; ${STREAM_SETTINGS}`);
      const result = await work(sqlOn(client));
      await client.query('COMMIT');
      return result;
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      // Class 22: a value in the filter Postgres cannot read as its column's type (2024-02-30, 1e999).
      if (String((error as { code?: unknown }).code ?? '').startsWith('22')) {
        throw badOption(`A value in $filter is not valid: ${(error as Error).message}`);
      }
      throw error;
    } finally {
      client.release();
    }
  }
}

/** Percent-encodes a query parameter, keeping `$` readable in option names. */
function encodeParameter(text: string): string {
  return encodeURIComponent(text).replace(/%24/g, '$');
}
