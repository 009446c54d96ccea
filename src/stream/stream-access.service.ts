import { Injectable, NotFoundException } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { AccessService } from '../access/access.service';
import type { AuthenticatedUser } from '../common/decorators/current-user.decorator';
import { UsersService } from '../users/users.service';
import { DATA_SCHEMA } from './stream-sql';
import type { SourceColumn, StreamSource } from './stream-source';

const UUID = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}';
const ASSET_REF = new RegExp(`^${UUID}$`, 'i');
const INSTANCE_REF = new RegExp(`^instance-(${UUID})$`, 'i');

interface SourceRow {
  id: string;
  title: string;
  table_name: string;
  columns: Array<{ name: string; label?: string }> | null;
}

/**
 * Who a key belongs to and which tables its owner may read, by the rules of AccessService: a
 * dataset streams to its owner and to holders of an access grant; a connector instance's table
 * only to the instance's owner. Anything else looks missing (null), so existence does not leak.
 */
@Injectable()
export class StreamAccessService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly users: UsersService,
    private readonly accessService: AccessService,
  ) {}

  /** The verified owner of a personal API key; a replaced key matches no one at once. */
  findUserByApiKey(key: string): Promise<AuthenticatedUser | null> {
    return this.users.findByApiKey(key);
  }

  /**
   * A dataset (`<assetId>`) or connector instance table (`instance-<instanceId>`; a bare instance
   * id works too) the user may read, with its columns; null when missing or not theirs.
   */
  async findReadableSource(userId: string, reference: string): Promise<StreamSource | null> {
    const instanceMatch = INSTANCE_REF.exec(reference);
    if (instanceMatch) return this.findOwnInstance(userId, instanceMatch[1]);
    if (!ASSET_REF.test(reference)) return null;
    const [asset] = await this.heldAssets(userId, reference);
    if (asset) return asset;
    return this.findOwnInstance(userId, reference);
  }

  /** Every dataset the user owns or holds a grant for, oldest first, with columns. */
  heldDatasets(userId: string): Promise<StreamSource[]> {
    return this.heldAssets(userId);
  }

  private async heldAssets(userId: string, assetId?: string): Promise<StreamSource[]> {
    const rows: SourceRow[] = await this.dataSource.query(
      `SELECT a.id, a.title, a.table_name, a.columns FROM assets a
       WHERE ${this.accessService.sql.hasAccess('a', '$1')}
         AND ($2::uuid IS NULL OR a.id = $2::uuid)
       ORDER BY a.created_at, a.id`,
      [userId, assetId ?? null],
    );
    return this.withColumns('asset', rows);
  }

  private async findOwnInstance(userId: string, instanceId: string): Promise<StreamSource | null> {
    const rows: SourceRow[] = await this.dataSource.query(
      `SELECT id, title, output_table_name AS table_name, NULL AS columns FROM connector_instances WHERE id = $1`,
      [instanceId],
    );
    if (rows.length === 0) return null;
    try {
      await this.accessService.requireOwnedConnectorTable(userId, rows[0].table_name);
    } catch (error) {
      if (error instanceof NotFoundException) return null;
      throw error;
    }
    const [instance] = await this.withColumns('instance', rows);
    return instance;
  }

  /**
   * Reads the real columns of each table from the catalogue (one query for all): datasets keep the
   * columns and labels their metadata lists, connector tables stream every column under its name.
   */
  private async withColumns(kind: StreamSource['kind'], rows: SourceRow[]): Promise<StreamSource[]> {
    if (rows.length === 0) return [];
    const catalog: Array<{ table_name: string; name: string; pg_type: string }> = await this.dataSource.query(
      `SELECT c.relname AS table_name, a.attname AS name, t.typname AS pg_type
       FROM pg_class c
       JOIN pg_namespace n ON n.oid = c.relnamespace
       JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped
       JOIN pg_type t ON t.oid = a.atttypid
       WHERE n.nspname = $1 AND c.relname = ANY($2::text[])
       ORDER BY c.relname, a.attnum`,
      [DATA_SCHEMA, rows.map((row) => row.table_name)],
    );
    const tables = new Map<string, Map<string, string>>();
    for (const entry of catalog) {
      if (!tables.has(entry.table_name)) tables.set(entry.table_name, new Map());
      tables.get(entry.table_name)!.set(entry.name, entry.pg_type);
    }
    return rows.map((row) => ({
      kind,
      id: row.id,
      title: row.title,
      tableName: row.table_name,
      columns: sourceColumns(row, tables.get(row.table_name)),
    }));
  }
}

function sourceColumns(row: SourceRow, tableColumns: Map<string, string> | undefined): SourceColumn[] {
  if (!tableColumns) return [];
  const listed = Array.isArray(row.columns)
    ? row.columns.filter((column) => tableColumns.has(column.name))
    : [];
  if (listed.length > 0) {
    return listed.map((column) => ({
      name: column.name,
      label: column.label || column.name,
      pgType: tableColumns.get(column.name)!,
    }));
  }
  return [...tableColumns].map(([name, pgType]) => ({ name, label: name, pgType }));
}
