import { createServer } from 'node:net';
import { DEMO_PRODUCT_TITLE, DemoProductSeeder } from '../../src/products/demo/demo-product.seeder';
import { createConnector, simpleSpec } from '../factories/connector.factory';
import { createLoggedInUser } from '../factories/user.factory';
import { DEMO_USER } from '../../src/database/seed/seed-context';
import { runMigrations } from '../../src/database/migrate';
import { createTestDatabase, TestDatabase } from '../setup/test-database';
import { createTestAppOn, TEST_ORIGIN, TestApp } from '../support/test-app';

/** A port nobody listens on right now. */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe('live products: the seeded demo refreshes from the app itself, with private networks still closed', () => {
  let testApp: TestApp;
  let port: number;

  let database: TestDatabase;

  // Its own database: the demo user's address is the seed's, which no other suite may hold.
  beforeAll(async () => {
    port = await freePort();
    database = await createTestDatabase('dm_live_demo');
    await runMigrations(database.url);
    testApp = await createTestAppOn(database.url, {
      PORT: String(port),
      CONNECTOR_ALLOW_PRIVATE_NETWORKS: 'false',
    });
    await testApp.app.listen(port, '127.0.0.1');
  });
  afterAll(async () => {
    await testApp.close();
    await database.drop();
  });

  it('seeds a connection to the demo feed and publishes it after its first run, once', async () => {
    const demo = await createLoggedInUser(testApp, { proUser: true, email: DEMO_USER.email });
    const seeder = testApp.app.get(DemoProductSeeder);
    await seeder.run({ demoUserId: demo.user.id });
    await seeder.run({ demoUserId: demo.user.id });
    // Someone else's connection to a connector of the same name is never published for them.
    const imitator = await createLoggedInUser(testApp, { proUser: true });
    await seeder.run({ demoUserId: imitator.user.id });
    const imitation = (await imitator.agent.get('/api/connectors/my').expect(200)).body[0].id;
    await imitator.agent.post(`/api/connectors/run/${imitation}`).set('Origin', TEST_ORIGIN).expect(200);
    const instances = (await demo.agent.get('/api/connectors/my').expect(200)).body as Array<{
      id: string;
      refresh_interval: number;
    }>;
    expect(instances).toHaveLength(1);
    expect(instances[0].refresh_interval).toBe(5);

    await demo.agent.post(`/api/connectors/run/${instances[0].id}`).set('Origin', TEST_ORIGIN).expect(200);
    await demo.agent.post(`/api/connectors/run/${instances[0].id}`).set('Origin', TEST_ORIGIN).expect(200);
    const listed = (
      await testApp.http.get('/api/assets').query({ live: 'true', search: 'air quality' }).expect(200)
    ).body as Array<{ id: string; title: string }>;
    const products = listed.filter((item) => item.title === DEMO_PRODUCT_TITLE);
    expect(products).toHaveLength(1);
    const [{ count }] = await testApp.dataSource.query(`SELECT count(*)::int AS count FROM live_products`);
    expect(count).toBe(1);
    const detail = (await testApp.http.get(`/api/assets/${products[0].id}`).expect(200)).body;
    expect(detail.row_count).toBe(5);
    expect(detail.columns.map((column: { name: string }) => column.name)).toEqual([
      'station',
      'measured_at',
      'pm25',
      'temperature_c',
    ]);
    expect(detail.live).toMatchObject({ interval_minutes: 5, stale_since: null });
    expect(detail.live.runs[0].outcome).toMatch(/updated|unchanged/);

    // The demo user connecting the demo connector again gets a private connection, not a second listing.
    const again = (
      await demo.agent
        .post('/api/connectors/activate')
        .set('Origin', TEST_ORIGIN)
        .send({
          connector_id: (
            await testApp.dataSource.query(`SELECT connector_id FROM connector_instances WHERE id = $1`, [
              instances[0].id,
            ])
          )[0].connector_id,
          settings: { override: true },
        })
        .expect(201)
    ).body as { id: string };
    await demo.agent.post(`/api/connectors/run/${again.id}`).set('Origin', TEST_ORIGIN).expect(200);
    const [{ published }] = await testApp.dataSource.query(
      `SELECT count(*)::int AS published FROM live_products`,
    );
    expect(published).toBe(1);
    const relisted = (
      await testApp.http.get('/api/assets').query({ live: 'true', search: 'air quality' }).expect(200)
    ).body as Array<{ title: string }>;
    expect(relisted.filter((item) => item.title === DEMO_PRODUCT_TITLE)).toHaveLength(1);
  });

  it('still refuses a connection to any other address of the app itself', async () => {
    const { agent } = await createLoggedInUser(testApp);
    const connector = await createConnector(testApp.dataSource, {
      spec: simpleSpec(`http://127.0.0.1:${port}`, { url_path: '/api/health' }),
    });
    const { id } = (
      await agent
        .post('/api/connectors/activate')
        .set('Origin', TEST_ORIGIN)
        .send({ connector_id: connector.id })
        .expect(201)
    ).body;
    const refused = await agent.post(`/api/connectors/run/${id}`).set('Origin', TEST_ORIGIN).expect(502);
    expect(refused.body.error).toContain('Refused to connect to 127.0.0.1');
  });
});
