import { Client } from 'pg';
import { SERVICE_UNAVAILABLE_MESSAGE } from '../../src/common/middleware/database-unavailable.middleware';
import { runMigrations } from '../../src/database/migrate';
import { uploadDataset } from '../factories/asset.factory';
import { createLoggedInUser } from '../factories/user.factory';
import { createTestDatabase, TestDatabase } from '../setup/test-database';
import { createTestAppOn, TEST_ORIGIN, TestApp } from '../support/test-app';

/**
 * After a failover the old primary comes back as a replica, and a connection can land on it (or
 * outlive its demotion) before the proxy's check notices: every write there is refused with
 * SQLSTATE 25006. The app must answer its 503 "retry shortly" and drop that connection at once,
 * so the next request gets a new one (through the proxy: the new leader), not the same refusal.
 * Played here on a database of its own whose new sessions are read only, with a pool of two.
 */
const POOL_SIZE = 2;

describe('database: a write that reaches a read-only server (a demoted primary)', () => {
  let database: TestDatabase;
  let testApp: TestApp;
  let control: Client;
  let name: string;

  beforeAll(async () => {
    database = await createTestDatabase('dm_read_only');
    await runMigrations(database.url);
    name = new URL(database.url).pathname.slice(1);
    control = new Client({ connectionString: database.url });
    await control.connect();
    testApp = await createTestAppOn(database.url, { DATABASE_POOL_SIZE: String(POOL_SIZE) });
  });

  afterAll(async () => {
    await testApp?.close();
    await control?.end().catch(() => undefined);
    await database?.drop();
  });

  /** From now on the app's connections are read only, as on a demoted primary. */
  async function demote(): Promise<void> {
    await control.query(`ALTER DATABASE "${name}" SET default_transaction_read_only = on`);
    await control.query(
      `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()`,
      [name],
    );
  }

  it('answers 503 with the retry message, drops the connection, and the next write goes through', async () => {
    const owner = await createLoggedInUser(testApp);
    const buyer = await createLoggedInUser(testApp);
    const paid = await uploadDataset(owner.agent, { price: '3.00', is_public: 'true' });
    const grant = () =>
      buyer.agent.post('/api/access/grant').set('Origin', TEST_ORIGIN).send({ assetId: paid });

    await demote();
    // Every write now meets a dead or a read-only connection: each answers the 503, none a 500.
    const refused = [];
    for (let attempt = 0; attempt < 4; attempt++) refused.push(await grant());
    expect(refused.map((answer) => answer.status)).toEqual([503, 503, 503, 503]);
    expect(refused.map((answer) => answer.body.error)).toEqual(Array(4).fill(SERVICE_UNAVAILABLE_MESSAGE));

    // The leader is back (the proxy routes to it): sessions made from now on take writes. At most
    // POOL_SIZE read-only connections are left in the pool, each dropped by the write it refuses;
    // kept, they would refuse every write from now on.
    await control.query(`ALTER DATABASE "${name}" RESET default_transaction_read_only`);
    const statuses: number[] = [];
    while (statuses.length <= POOL_SIZE && statuses.at(-1) !== 200) statuses.push((await grant()).status);
    expect(statuses.at(-1)).toBe(200);
    expect(statuses.slice(0, -1).every((status) => status === 503)).toBe(true);
    const [{ count }] = (
      await control.query(`SELECT count(*)::int AS count FROM purchases WHERE user_id = $1`, [buyer.user.id])
    ).rows;
    expect(count).toBe(1);
  });
});
