import { createLoggedInUser } from '../factories/user.factory';
import { createTestApp, TestApp } from '../support/test-app';
import { createDataset, setApiKey } from './stream.factory';

describe('API-key routes and the session', () => {
  let testApp: TestApp;

  beforeAll(async () => {
    testApp = await createTestApp();
  });
  afterAll(async () => {
    await testApp.close();
  });

  /** When the user's sessions expire (other suites keep sessions of their own in the same table). */
  async function sessionExpiry(userId: string): Promise<string[]> {
    const rows = await testApp.dataSource.query(
      `SELECT expire::text FROM session WHERE sess::text LIKE $1 ORDER BY sid`,
      [`%${userId}%`],
    );
    return rows.map((row: { expire: string }) => row.expire);
  }

  it('leaves a browser session untouched when a stream or OData call carries its cookie', async () => {
    const { user, agent } = await createLoggedInUser(testApp);
    const apiKey = await setApiKey(testApp.dataSource, user.id);
    await createDataset(testApp.dataSource, {
      ownerId: user.id,
      columns: [{ name: 'n', label: 'N', sqlType: 'integer', type: 'integer' }],
      rows: [[1]],
    });
    const before = await sessionExpiry(user.id);
    expect(before).toHaveLength(1);
    await new Promise((resolve) => setTimeout(resolve, 1100));
    await agent.get('/api/stream/data').set('X-API-Key', apiKey).expect(200);
    await agent.get('/api/odata').set('X-API-Key', apiKey).expect(200);
    expect(await sessionExpiry(user.id)).toEqual(before);
    // The key decides, not the cookie: without the key the stream refuses a logged-in browser.
    await agent.get('/api/stream/data').expect(401);
    // Everything else still rolls the session forward.
    await agent.get('/api/users/me').expect(200);
    expect(await sessionExpiry(user.id)).not.toEqual(before);
  });
});
