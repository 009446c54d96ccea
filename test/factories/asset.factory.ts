import type { Test } from 'supertest';
import type TestAgent from 'supertest/lib/agent';
import { DataSource } from 'typeorm';
import { TEST_ORIGIN } from '../support/test-app';

export interface UploadFields {
  title?: string;
  description?: string;
  category?: string;
  keywords?: string;
  price?: string;
  is_public?: string;
  licence?: string;
  delimiter?: string;
  encoding?: string;
  decimal_mark?: string;
  thousands_separator?: string;
  date_order?: string;
  column_types?: string;
  sheet?: string;
}

type Agent = TestAgent<Test>;

let counter = 0;

/** POST assets/upload-csv as the agent's user; fields go first, then the file (like the web form). */
export function postCsv(
  agent: Agent,
  csv: string | Buffer,
  fields: UploadFields = {},
  filename = 'data.csv',
  fieldsAfterFile = false,
) {
  const request = agent.post('/api/assets/upload-csv').set('Origin', TEST_ORIGIN);
  const withFields = (target: Test) => {
    for (const [key, value] of Object.entries(fields)) if (value !== undefined) target.field(key, value);
    return target;
  };
  const file = Buffer.isBuffer(csv) ? csv : Buffer.from(csv, 'utf8');
  if (fieldsAfterFile) return withFields(request.attach('file', file, filename));
  return withFields(request).attach('file', file, filename);
}

/** Uploads a small valid dataset and returns its id. */
export async function uploadDataset(
  agent: Agent,
  fields: UploadFields = {},
  csv = 'name,amount\nalpha,1\nbeta,2\ngamma,3\n',
): Promise<string> {
  counter += 1;
  const response = await postCsv(agent, csv, { title: `Dataset ${counter}`, ...fields });
  if (response.status !== 201) {
    throw new Error(`Upload failed with ${response.status}: ${JSON.stringify(response.body)}`);
  }
  return response.body.id as string;
}

/** Names of the tables currently in schema `data`. */
/**
 * Dataset tables in `data` without a catalogue row. A table and its asset commit in one transaction,
 * so anything listed here is debris of a failed upload; other suites running at the same time
 * cannot make this list longer, unlike a plain before/after count of tables.
 */
export async function orphanDatasetTables(dataSource: DataSource): Promise<string[]> {
  const rows: { table_name: string }[] = await dataSource.query(
    `SELECT table_name FROM information_schema.tables
      WHERE table_schema = 'data' AND table_name LIKE 'ds\\_%'
        AND table_name NOT IN (SELECT table_name FROM assets WHERE table_name IS NOT NULL)
      ORDER BY table_name`,
  );
  return rows.map((row) => row.table_name);
}

/** Assets owned by one user: unaffected by suites that add assets at the same time. */
export async function assetCount(dataSource: DataSource, ownerId: string): Promise<number> {
  const [row] = await dataSource.query(`SELECT count(*)::int AS count FROM assets WHERE owner_id = $1`, [
    ownerId,
  ]);
  return row.count;
}

const INSERT_BATCH_ROWS = 1_000;

/** Inserts catalogue rows directly (no table behind them): for catalogue-only tests at scale. */
export async function insertAssetRows(
  dataSource: DataSource,
  ownerId: string,
  count: number,
  options: { titlePrefix?: string; category?: string; isPublic?: boolean } = {},
): Promise<void> {
  // In statements of a thousand rows: each stays well inside the app's statement limit on a busy machine.
  for (let first = 1; first <= count; first += INSERT_BATCH_ROWS) {
    await dataSource.query(
      `INSERT INTO assets (owner_id, title, category, is_public, table_name)
       SELECT $1, $2 || ' ' || n, $3, $4, 'bulk_' || replace(gen_random_uuid()::text, '-', '')
         FROM generate_series($5::int, $6::int) AS n`,
      [
        ownerId,
        options.titlePrefix ?? 'Bulk dataset',
        options.category ?? 'Other',
        options.isPublic ?? true,
        first,
        Math.min(count, first + INSERT_BATCH_ROWS - 1),
      ],
    );
  }
}

/** The ingest runs on its own connection; after any answer none may stay open (it would hold a transaction). */
export async function expectNoIngestConnections(testApp: { dataSource: DataSource }): Promise<void> {
  for (let attempt = 0; attempt < 50; attempt++) {
    const [row] = await testApp.dataSource.query(
      `SELECT count(*)::int AS open FROM pg_stat_activity WHERE application_name = 'dataset-ingest' AND datname = current_database()`,
    );
    if (row.open === 0) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error('an ingest connection stayed open');
}
