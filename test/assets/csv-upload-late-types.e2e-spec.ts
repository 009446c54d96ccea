import type { Test } from 'supertest';
import type TestAgent from 'supertest/lib/agent';
import {
  assetCount,
  expectNoIngestConnections,
  orphanDatasetTables,
  postCsv,
} from '../factories/asset.factory';
import { createLoggedInUser } from '../factories/user.factory';
import { createIsolatedTestApp, TestApp } from '../support/test-app';

/** Comfortably more rows than the ingest's 4 MB type sample holds (about 5.5 MB here). */
const FILLER_ROWS = 250_000;

/**
 * A file whose first FILLER_ROWS rows all fit integer (and date) columns, followed by `lastRows`:
 * the values that decide the types only arrive after the sample.
 */
function lateCsv(lastRows: string[], laterColumn: 'empty' | 'filled' | 'quoted empty' = 'empty'): Buffer {
  const lines = ['id,amount,code,day,later'];
  for (let row = 1; row <= FILLER_ROWS; row++) {
    const day = `2024-01-${String((row % 28) + 1).padStart(2, '0')}`;
    const later = laterColumn === 'filled' ? row : laterColumn === 'quoted empty' ? '""' : '';
    lines.push(`${row},${row % 1000},${(row % 90) + 10},${day},${later}`);
  }
  return Buffer.from([...lines, ...lastRows].join('\n') + '\n');
}

describe('POST assets/upload-csv: types decided by values after the first 4 MB', () => {
  let testApp: TestApp;
  let agent: TestAgent<Test>;
  let uploaderId: string;

  beforeAll(async () => {
    // Its own database: its long COPYs must not meet other suites' checks of open ingest connections.
    testApp = await createIsolatedTestApp('dm_late_types');
    const uploader = await createLoggedInUser(testApp, { name: 'Late Values' });
    agent = uploader.agent;
    uploaderId = uploader.user.id;
  });
  afterAll(() => testApp.close());

  async function ingest(csv: Buffer) {
    const response = await postCsv(agent, csv, { title: 'Late values' });
    expect(response.body).toEqual({
      id: expect.any(String),
      redirectUrl: expect.any(String),
      dialect: expect.any(Object),
    });
    const detail = await agent.get(`/api/assets/${response.body.id}`).expect(200);
    const types = Object.fromEntries(
      (detail.body.columns as { name: string; type: string }[]).map((column) => [column.name, column.type]),
    );
    const [{ table_name: table }] = await testApp.dataSource.query(
      `SELECT table_name FROM assets WHERE id = $1`,
      [response.body.id],
    );
    // As JSON, so numbers, dates and text come back in the form Postgres stored them.
    const edgeRows = (await testApp.dataSource.query(
      `(SELECT to_jsonb(t) - '_row_id' AS row FROM data."${table}" t ORDER BY _row_id LIMIT 1)
       UNION ALL (SELECT to_jsonb(t) - '_row_id' FROM data."${table}" t ORDER BY _row_id DESC LIMIT 1)`,
    )) as { row: Record<string, unknown> }[];
    const [{ count }] = await testApp.dataSource.query(`SELECT count(*)::int AS count FROM data."${table}"`);
    const [first, last] = edgeRows.map(({ row }) => row);
    return { types, first, last, count, table: table as string };
  }

  async function expectRejected(csv: Buffer, status: number, message: string) {
    const before = await assetCount(testApp.dataSource, uploaderId);
    const response = await postCsv(agent, csv, { title: 'Late values' });
    expect(response.status).toBe(status);
    expect(response.body.error).toBe(message);
    expect(await assetCount(testApp.dataSource, uploaderId)).toBe(before);
    expect(await orphanDatasetTables(testApp.dataSource)).toEqual([]);
    await expectNoIngestConnections(testApp);
  }

  it('keeps the sample types when every later value fits them', async () => {
    const loaded = await ingest(lateCsv(['250001,5,42,2024-02-29,']));
    expect(loaded.types).toEqual({
      id: 'integer',
      amount: 'integer',
      code: 'integer',
      day: 'date',
      later: 'text',
    });
    expect(loaded.count).toBe(FILLER_ROWS + 1);
    expect(loaded.last).toEqual({ id: 250001, amount: 5, code: 42, day: '2024-02-29', later: null });
  });

  it('makes a column numeric when its first decimal comes late, every value exact', async () => {
    const loaded = await ingest(lateCsv(['250001,2.75,42,2024-02-29,']));
    expect(loaded.types.amount).toBe('numeric');
    expect(loaded.types.id).toBe('integer');
    expect(loaded.count).toBe(FILLER_ROWS + 1);
    expect(loaded.first).toMatchObject({ id: 1, amount: 1 });
    expect(loaded.last).toMatchObject({ id: 250001, amount: 2.75 });
  });

  it('keeps a late code with a leading zero as text (a number column would turn 007 into 7)', async () => {
    const loaded = await ingest(lateCsv(['250001,5,007,2024-02-29,']));
    expect(loaded.types.code).toBe('text');
    expect(loaded.types.amount).toBe('integer');
    expect(loaded.first).toMatchObject({ code: '11' });
    expect(loaded.last).toMatchObject({ code: '007' });
  });

  it('types a column that is empty throughout the sample from its later values', async () => {
    const loaded = await ingest(lateCsv(['250001,5,42,2024-02-29,12', '250002,6,43,2024-03-01,']));
    expect(loaded.types.later).toBe('integer');
    const [{ later }] = await testApp.dataSource.query(
      `SELECT later FROM data."${loaded.table}" WHERE id = 250001`,
    );
    expect(later).toBe('12');
    expect(loaded.count).toBe(FILLER_ROWS + 2);
    expect(loaded.first).toMatchObject({ later: null });
    expect(loaded.last).toMatchObject({ later: null });
  });

  it('stores quoted empty fields as NULL in columns typed after the sample or on the second pass', async () => {
    // `later` holds only "" in the sample and is typed late; `amount` needs the text pass.
    const loaded = await ingest(
      lateCsv(['250001,2.75,42,2024-02-29,12', '250002,"",43,2024-03-01,""'], 'quoted empty'),
    );
    expect(loaded.types).toMatchObject({ amount: 'numeric', later: 'integer' });
    expect(loaded.first).toMatchObject({ amount: 1, later: null });
    expect(loaded.last).toMatchObject({ amount: null, later: null });
    expect(loaded.count).toBe(FILLER_ROWS + 2);
  });

  it('leaves only the column with a late impossible date as text', async () => {
    const loaded = await ingest(lateCsv(['250001,5,42,2023-02-30,']));
    expect(loaded.types).toMatchObject({ id: 'integer', amount: 'integer', day: 'text' });
    expect(loaded.last).toMatchObject({ day: '2023-02-30' });
    expect(loaded.first).toMatchObject({ day: '2024-01-02' });
  });

  it('rejects a ragged row after the sample naming its line, leaving nothing behind', async () => {
    await expectRejected(
      lateCsv(['250001,5,42']),
      400,
      `Line ${FILLER_ROWS + 2} has 3 fields, but the header has 5 columns.`,
    );
  });

  describe('without usable temporary disk space', () => {
    // The spool goes to os.tmpdir(); a directory that does not exist stands for a full disk.
    // The spy goes on Node's own module object, the one the ingest code calls into.
    const os = jest.requireActual<typeof import('node:os')>('node:os');
    let tmpdirSpy: jest.SpyInstance;
    beforeAll(() => (tmpdirSpy = jest.spyOn(os, 'tmpdir').mockReturnValue('/nonexistent/upload-spool')));
    afterAll(() => tmpdirSpy.mockRestore());

    it('still loads a file whose types the sample got right', async () => {
      const loaded = await ingest(lateCsv(['250001,5,42,2024-02-29,']));
      expect(loaded.count).toBe(FILLER_ROWS + 1);
      expect(tmpdirSpy).toHaveBeenCalled();
    });

    it('answers 503 when the file must be read again, leaving nothing behind', async () => {
      await expectRejected(
        lateCsv(['250001,2.75,42,2024-02-29,']),
        503,
        'The server is short of temporary disk space to finish this upload. Please try again later.',
      );
    });
  });
});
