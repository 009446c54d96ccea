import { BadRequestException, Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { ReadReplica } from '../database/read-replica.service';
import { AccessGate, Caller } from '../access/access-gate.service';
import { columnsOf, displayType } from '../database/data-tables/data-table-catalog';
import {
  dataTable,
  FETCHED_AT_COLUMN,
  quoteIdentifier,
  ROW_ID_COLUMN,
} from '../database/data-tables/data-table-names';
import {
  parameterBinder,
  parseRowFilters,
  RowFilter,
  rowFilterCondition,
  RowFilterError,
} from '../database/data-tables/row-filters';
import { sqlOn } from '../database/sql';
import { DatasetActivityService } from './activity/dataset-activity.service';
import type { AssetColumn } from './entities/asset.entity';
import type { AssetData, ConnectorTableRows } from './asset-views';
import type { AssetDataQueryDto } from './dto/asset-data-query.dto';
import { jsonSafeColumn, ROW_SOURCE, wideNumberKind } from './json-safe-select';

/** Rows shown without access ('Sample Data Preview'). */
export const SAMPLE_ROWS = 10;
/** The connector table preview shows the latest 100 rows. */
export const CONNECTOR_PREVIEW_ROWS = 100;

/**
 * Reads rows out of dataset and connector tables for the grid. Postgres renders each row as JSON
 * (numbers stay numbers, dates ISO strings), so nothing is re-typed in JS; numbers too wide for a
 * JavaScript number arrive as exact decimal strings.
 */
@Injectable()
export class AssetRowsService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly reads: ReadReplica,
    private readonly gate: AccessGate,
    private readonly activity: DatasetActivityService,
  ) {}

  /**
   * A page of rows for a caller with access; otherwise the first 10 rows as a sample, whatever
   * paging or sorting was asked for (so the sample cannot be paged through).
   */
  async readData(caller: Caller, assetId: string, query: AssetDataQueryDto): Promise<AssetData> {
    const { asset, held } = await this.gate.requireDataset(caller, assetId, 'sample');
    this.activity.countGridView(asset.id);
    const table = `${dataTable(asset.tableName)} ${ROW_SOURCE}`;
    const rowId = `${ROW_SOURCE}.${ROW_ID_COLUMN}`;
    const columnList = asset.columns
      .map((column) =>
        jsonSafeColumn(
          column.name,
          column.type === 'integer' || column.type === 'numeric' ? column.type : undefined,
        ),
      )
      .join(', ');
    const filters = this.filtersFor(query.filter, asset.columns);
    const base = { columns: asset.columns, total: Number(asset.rowCount) };
    if (!held) {
      // Filters look inside the 10 sample rows only: they must not become a way to search the
      // rows a visitor has not got.
      const limit = Math.min(query.limit ?? SAMPLE_ROWS, SAMPLE_ROWS);
      const params: unknown[] = [limit];
      const where = rowFilterCondition(filters, parameterBinder(params), ROW_SOURCE);
      const sample = `(SELECT * FROM ${dataTable(asset.tableName)} ORDER BY ${ROW_ID_COLUMN} LIMIT $1) ${ROW_SOURCE}`;
      const rows = await this.jsonRows(
        `SELECT ${columnList} FROM ${sample} WHERE ${where} ORDER BY ${rowId}`,
        params,
      );
      return { ...base, rows, sample: true, limit, offset: 0 };
    }
    let order = rowId;
    if (query.sort !== undefined) {
      // `-column` is shorthand for descending; `direction` says it explicitly.
      const descending = query.sort.startsWith('-') || query.direction === 'desc';
      const name = query.sort.replace(/^-/, '');
      if (!asset.columns.some((column) => column.name === name)) {
        throw new BadRequestException(`Cannot sort by "${name}": no such column`);
      }
      const direction = descending ? 'DESC' : 'ASC';
      // Qualified, so the sort is on the stored values and not on the JSON-ready outputs of the same name.
      order = `${ROW_SOURCE}.${quoteIdentifier(name)} ${direction} NULLS LAST, ${rowId} ${direction}`;
    }
    const limit = query.limit ?? 100;
    const offset = query.offset ?? 0;
    const params: unknown[] = [limit, offset];
    const where = rowFilterCondition(filters, parameterBinder(params), ROW_SOURCE);
    const rows = await this.jsonRows(
      `SELECT ${columnList} FROM ${table} WHERE ${where} ORDER BY ${order} LIMIT $1 OFFSET $2`,
      params,
    );
    if (filters.length > 0) {
      const countParams: unknown[] = [];
      const countWhere = rowFilterCondition(filters, parameterBinder(countParams), ROW_SOURCE);
      const counted = await sqlOn(this.reads.forReads())<{ total: string }>(
        `SELECT count(*) AS total FROM ${table} WHERE ${countWhere}`,
        countParams,
      );
      base.total = Number(counted.rows[0].total);
    }
    return { ...base, rows, sample: false, limit, offset };
  }

  /** The request's row filters on these columns; a wrong one answers 400 with its reason. */
  private filtersFor(raw: string[] | undefined, columns: AssetColumn[]): RowFilter[] {
    try {
      return parseRowFilters(raw, columns);
    } catch (error) {
      if (error instanceof RowFilterError) throw new BadRequestException(error.message);
      throw error;
    }
  }

  /** The latest 100 rows of a connector instance's table, for its owner only (404 for anyone else). */
  async readConnectorTable(caller: Caller, outputTableName: string): Promise<ConnectorTableRows> {
    // The gate has matched the name to a table of the caller's own instance.
    await this.gate.requireConnectorTable(caller, outputTableName);
    const tableName = outputTableName;
    const stored = await columnsOf(sqlOn(this.reads.forReads()), tableName);
    // No run has created the table yet.
    if (stored.length === 0) return { columns: [], rows: [] };
    // The records' own columns first; the internal ones (`_run_id`, `_fetched_at`, `_<iteration>`) last.
    const columns = [
      ...stored.filter((column) => !column.name.startsWith('_')),
      ...stored.filter((column) => column.name.startsWith('_')),
    ];
    // Newest run first (every row of a run has its fetch start), then in the order fetched.
    const order = columns.some((column) => column.name === FETCHED_AT_COLUMN)
      ? `ORDER BY ${ROW_SOURCE}.${quoteIdentifier(FETCHED_AT_COLUMN)} DESC, ${ROW_SOURCE}.ctid`
      : '';
    const select = columns
      .map((column) => jsonSafeColumn(column.name, wideNumberKind(column.pgType)))
      .join(', ');
    const rows = await this.jsonRows(
      `SELECT ${select} FROM ${dataTable(tableName)} ${ROW_SOURCE} ${order} LIMIT $1`,
      [CONNECTOR_PREVIEW_ROWS],
    );
    return {
      columns: columns.map((column) => ({ name: column.name, type: displayType(column.pgType) })),
      rows,
    };
  }

  private async jsonRows(select: string, params: unknown[]): Promise<Record<string, unknown>[]> {
    const rows: { row: Record<string, unknown> }[] = await this.reads
      .forReads()
      .query(`SELECT to_json(page) AS row FROM (${select}) page`, params);
    return rows.map((entry) => entry.row);
  }
}
