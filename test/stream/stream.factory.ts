import { randomBytes, randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { sha256Hex } from '../../src/common/crypto/secret-box';
import { createUser, TestUser, UserOptions } from '../factories/user.factory';

export interface TestColumn {
  name: string;
  label: string;
  /** SQL type of the real column. */
  sqlType: string;
  /** Type as the asset metadata lists it. */
  type: string;
}

export interface TestDataset {
  id: string;
  title: string;
  tableName: string;
}

/** A fresh random personal API key, shaped like the generated ones. */
export function newApiKey(): string {
  return randomBytes(32).toString('base64url');
}

/** Gives the user a (new) API key by storing its hash, as key generation does. */
export async function setApiKey(
  dataSource: DataSource,
  userId: string,
  apiKey = newApiKey(),
): Promise<string> {
  await dataSource.query('UPDATE users SET api_key_hash = $1 WHERE id = $2', [sha256Hex(apiKey), userId]);
  return apiKey;
}

export async function createUserWithApiKey(
  dataSource: DataSource,
  options: UserOptions = {},
): Promise<{ user: TestUser; apiKey: string }> {
  const user = await createUser(dataSource, options);
  return { user, apiKey: await setApiKey(dataSource, user.id) };
}

function tableNameFor(prefix: string): string {
  return `${prefix}_${randomUUID().replace(/-/g, '').slice(0, 16)}`;
}

/**
 * A dataset as CSV ingest leaves it: an asset row plus the real table `data.<table_name>`.
 * `rows` are inserted in order (so paging can be checked); `generateRows` fills big tables in SQL.
 */
export async function createDataset(
  dataSource: DataSource,
  options: {
    ownerId: string;
    title?: string;
    isPublic?: boolean;
    columns: TestColumn[];
    rows?: unknown[][];
    /** SELECT producing the rows, e.g. from generate_series, for large tables. */
    rowsSql?: string;
    /** Give the table the hidden `_row_id` that CSV ingest creates (file order). */
    withRowId?: boolean;
  },
): Promise<TestDataset> {
  const tableName = tableNameFor('ds');
  const title = options.title ?? `Dataset ${tableName}`;
  // Table and asset commit together, as ingest does, so no other suite ever sees a table without its asset.
  const asset = await dataSource.transaction(async (manager) => {
    const definition = [
      ...(options.withRowId ? ['_row_id bigint GENERATED ALWAYS AS IDENTITY'] : []),
      ...options.columns.map((column) => `"${column.name}" ${column.sqlType}`),
    ].join(', ');
    await manager.query(`CREATE TABLE data."${tableName}" (${definition})`);
    const names = options.columns.map((column) => `"${column.name}"`).join(', ');
    for (const row of options.rows ?? []) {
      const placeholders = row.map((_value, index) => `$${index + 1}`).join(', ');
      await manager.query(`INSERT INTO data."${tableName}" (${names}) VALUES (${placeholders})`, row);
    }
    if (options.rowsSql) await manager.query(`INSERT INTO data."${tableName}" (${names}) ${options.rowsSql}`);
    const [asset] = await manager.query(
      `INSERT INTO assets (owner_id, title, is_public, table_name, columns, row_count)
       VALUES ($1, $2, $3, $4, $5::jsonb, (SELECT count(*) FROM data."${tableName}")) RETURNING id`,
      [
        options.ownerId,
        title,
        options.isPublic ?? true,
        tableName,
        JSON.stringify(options.columns.map(({ name, label, type }) => ({ name, label, type }))),
      ],
    );
    return asset as { id: string };
  });
  return { id: asset.id, title, tableName };
}

export async function grantAccess(dataSource: DataSource, userId: string, assetId: string): Promise<void> {
  await dataSource.query(`INSERT INTO access_grants (user_id, asset_id, reason) VALUES ($1, $2, 'free')`, [
    userId,
    assetId,
  ]);
}

/** A connector instance whose output table holds the given rows (or no table yet). */
export async function createConnectorInstance(
  dataSource: DataSource,
  options: { ownerId: string; tableSql?: string },
): Promise<{ id: string; tableName: string }> {
  const [connector] = await dataSource.query(
    `INSERT INTO connectors (title, fetch_url_template) VALUES ('Test connector', 'https://example.test/{{x}}') RETURNING id`,
  );
  const tableName = tableNameFor('ci');
  const [instance] = await dataSource.query(
    `INSERT INTO connector_instances (connector_id, owner_id, title, output_table_name)
     VALUES ($1, $2, 'Weather feed', $3) RETURNING id`,
    [connector.id, options.ownerId, tableName],
  );
  if (options.tableSql) await dataSource.query(`CREATE TABLE data."${tableName}" AS ${options.tableSql}`);
  return { id: instance.id, tableName };
}

/** A strict RFC 4180 reader for checking what the CSV stream sends (null for unquoted empty cells). */
export function parseCsv(text: string): Array<Array<string | null>> {
  const rows: Array<Array<string | null>> = [];
  let row: Array<string | null> = [];
  let index = 0;
  while (index < text.length) {
    let cell: string | null;
    if (text[index] === '"') {
      let value = '';
      index++;
      for (;;) {
        if (index >= text.length) throw new Error('Unterminated quoted cell');
        if (text[index] === '"') {
          if (text[index + 1] === '"') {
            value += '"';
            index += 2;
            continue;
          }
          index++;
          break;
        }
        value += text[index++];
      }
      cell = value;
    } else {
      let end = index;
      while (end < text.length && text[end] !== ',' && text[end] !== '\n' && text[end] !== '\r') end++;
      const raw = text.slice(index, end);
      if (raw.includes('"')) throw new Error(`Stray quote in unquoted cell: ${raw}`);
      cell = raw === '' ? null : raw;
      index = end;
    }
    row.push(cell);
    if (text[index] === ',') {
      index++;
      continue;
    }
    if (text[index] === '\r') index++;
    if (text[index] === '\n' || index >= text.length) {
      rows.push(row);
      row = [];
      index++;
      continue;
    }
    throw new Error(`Unexpected character at ${index}`);
  }
  return rows;
}
