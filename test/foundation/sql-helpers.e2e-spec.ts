import {
  isDatabaseUnavailable,
  isUniqueViolation,
  pgPool,
  sqlOn,
  transactionOn,
} from '../../src/database/sql';
import { createTestApp, TestApp } from '../support/test-app';

/** The database helpers every module shares, against a real database. */
describe('database helpers', () => {
  let testApp: TestApp;
  const table = `sql_helpers_${process.pid}`;

  beforeAll(async () => {
    testApp = await createTestApp();
    await testApp.dataSource.query(`CREATE TABLE IF NOT EXISTS public.${table} (id int PRIMARY KEY, n int)`);
  });
  afterAll(async () => {
    await testApp.dataSource.query(`DROP TABLE IF EXISTS public.${table}`);
    await testApp.close();
  });

  it('answers rows and the touched count the same way from a pool, a client and a transaction', async () => {
    await sqlOn(testApp.dataSource)(`INSERT INTO ${table} VALUES (1, 1), (2, 2)`);
    const updated = await testApp.dataSource.transaction((manager) =>
      sqlOn(manager)<{ id: number }>(`UPDATE ${table} SET n = n + 1 RETURNING id`),
    );
    expect(updated.rowCount).toBe(2);
    expect(updated.rows.map((row) => row.id).sort()).toEqual([1, 2]);
    const client = await pgPool(testApp.dataSource).connect();
    try {
      const deleted = await sqlOn(client)(`DELETE FROM ${table}`);
      expect(deleted).toEqual({ rows: [], rowCount: 2 });
    } finally {
      client.release();
    }
  });

  it('rolls a held connection back when the work fails, and commits when it succeeds', async () => {
    const client = await pgPool(testApp.dataSource).connect();
    try {
      await expect(
        transactionOn(client, async () => {
          await client.query(`INSERT INTO ${table} VALUES (10, 0)`);
          throw new Error('boom');
        }),
      ).rejects.toThrow('boom');
      await transactionOn(client, () => client.query(`INSERT INTO ${table} VALUES (11, 0)`));
      const { rows } = await client.query(`SELECT id FROM ${table} ORDER BY id`);
      expect(rows).toEqual([{ id: 11 }]);
    } finally {
      client.release();
    }
  });

  it('tells a unique violation apart, through TypeORM and through pg', async () => {
    await testApp.dataSource.query(`INSERT INTO ${table} VALUES (20, 0)`);
    const viaTypeorm = await testApp.dataSource.query(`INSERT INTO ${table} VALUES (20, 0)`).catch((e) => e);
    const viaPg = await pgPool(testApp.dataSource)
      .query(`INSERT INTO ${table} VALUES (20, 0)`)
      .catch((e) => e);
    const otherError = await testApp.dataSource.query(`SELECT 1/0`).catch((e) => e);
    expect(isUniqueViolation(viaTypeorm)).toBe(true);
    expect(isUniqueViolation(viaPg)).toBe(true);
    expect(isUniqueViolation(otherError)).toBe(false);
    expect(isDatabaseUnavailable(otherError)).toBe(false);
    expect(isDatabaseUnavailable(Object.assign(new Error('x'), { code: 'ECONNREFUSED' }))).toBe(true);
  });
});
