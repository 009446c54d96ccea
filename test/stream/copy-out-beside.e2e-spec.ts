import { Pool } from 'pg';
import { PassThrough, Writable } from 'node:stream';
import { pgPool } from '../../src/database/sql';
import { copyOut } from '../../src/stream/copy-out';
import { createTestApp, TestApp } from '../support/test-app';

/** Work beside a COPY (a Parquet file's numeric digits) sees the COPY's rows, on a second connection when one is free. */
describe('copyOut: work beside the COPY', () => {
  let testApp: TestApp;

  beforeAll(async () => {
    testApp = await createTestApp();
  });
  afterAll(() => testApp.close());

  const COPY = `COPY (SELECT pg_current_snapshot()::text, pg_backend_pid()) TO STDOUT`;

  /** Runs COPY with work beside it; answers what each saw: the snapshot and the server process. */
  async function run(pool: Pool) {
    let beside: { snapshot: string; pid: number } | undefined;
    let besideDone: Promise<void> | undefined;
    const chunks: Buffer[] = [];
    await copyOut(
      pool,
      COPY,
      new Writable({ write: (chunk: Buffer, _encoding, done) => done(void chunks.push(chunk)) }),
      {
        tables: [],
        beside: async (sql) => {
          // A transaction commits first: a snapshot of its own taken now would differ from the COPY's.
          await testApp.dataSource.query('SELECT txid_current()');
          const { rows } = await sql<{ snapshot: string; pid: number }>(
            `SELECT pg_current_snapshot()::text AS snapshot, pg_backend_pid() AS pid`,
          );
          beside = rows[0];
        },
        transform: (done) => {
          besideDone = done;
          return new PassThrough();
        },
        onStart: () => undefined,
      },
    );
    await besideDone;
    const [snapshot, pid] = Buffer.concat(chunks).toString().trim().split('\t');
    return { copy: { snapshot, pid: Number(pid) }, beside: beside! };
  }

  it('runs on a second connection in the COPY’s own snapshot', async () => {
    const { copy, beside } = await run(pgPool(testApp.dataSource));
    expect(beside.pid).not.toBe(copy.pid);
    expect(beside.snapshot).toBe(copy.snapshot);
  });

  it('runs before the COPY on its own connection when no second one is free', async () => {
    const single = new Pool({ ...pgPool(testApp.dataSource).options, max: 1 });
    try {
      const { copy, beside } = await run(single);
      expect(beside.pid).toBe(copy.pid);
      expect(beside.snapshot).toBe(copy.snapshot);
    } finally {
      await single.end();
    }
  });
});
