import { uploadDataset } from '../factories/asset.factory';
import { createLoggedInUser } from '../factories/user.factory';
import { createTestApp, TEST_ORIGIN, TestApp } from '../support/test-app';

describe('leaving: export one’s data and delete the account', () => {
  let testApp: TestApp;

  beforeAll(async () => {
    testApp = await createTestApp();
  });
  afterAll(() => testApp.close());

  const grant = (agent: ReturnType<TestApp['agent']>, assetId: string) =>
    agent.post('/api/access/grant').set('Origin', TEST_ORIGIN).send({ assetId }).expect(200);
  const deleteAccount = (agent: ReturnType<TestApp['agent']>, password: unknown) =>
    agent.delete('/api/users/me').set('Origin', TEST_ORIGIN).send({ password });

  it('exports profile, purchases, uploads and tokens as JSON, without any secret', async () => {
    const seller = await createLoggedInUser(testApp);
    const me = await createLoggedInUser(testApp, { name: 'Exporting Erin' });
    const bought = await uploadDataset(seller.agent, { title: 'Bought for export', price: '6.00' });
    const mine = await uploadDataset(me.agent, { title: 'My own upload', price: '0' });
    await grant(me.agent, bought);
    const key = (
      await me.agent
        .post('/api/dev/apikey')
        .set('Origin', TEST_ORIGIN)
        .send({ email: me.user.email })
        .expect(200)
    ).body.api_key as string;
    const named = (
      await me.agent
        .post('/api/users/tokens')
        .set('Origin', TEST_ORIGIN)
        .send({ name: 'Export notebook', scopes: ['query'] })
        .expect(201)
    ).body.token as string;

    const response = await me.agent.get('/api/users/me/export').expect(200);
    expect(response.headers['content-disposition']).toBe('attachment; filename="my-data.json"');
    const data = response.body;
    expect(data.profile).toMatchObject({ id: me.user.id, name: 'Exporting Erin', email: me.user.email });
    expect(data.purchases.orders).toEqual([
      expect.objectContaining({ asset_id: bought, title: 'Bought for export', amount: 6, status: 'paid' }),
    ]);
    expect(data.purchases.held.map((held: { asset_id: string }) => held.asset_id)).toEqual([bought]);
    expect(data.uploads).toEqual([
      expect.objectContaining({ id: mine, type: 'dataset', title: 'My own upload' }),
    ]);
    expect(data.tokens).toEqual(
      expect.arrayContaining([
        { kind: 'api_key', expires_at: null },
        {
          kind: 'named_token',
          name: 'Export notebook',
          scopes: ['query'],
          expires_at: null,
          last_used_at: null,
        },
        { kind: 'session', expires_at: expect.any(String) },
      ]),
    );
    const text = JSON.stringify(data);
    expect(text).not.toContain(key);
    expect(text).not.toContain(named);
    expect(text).not.toContain(me.user.password);
    expect(text).not.toMatch(/password|hash/i);
  });

  it('refuses visitors (401) and a wrong or missing password (400), deleting nothing', async () => {
    const me = await createLoggedInUser(testApp);
    await testApp.http.get('/api/users/me/export').expect(401);
    await testApp.http.delete('/api/users/me').set('Origin', TEST_ORIGIN).send({ password: 'x' }).expect(401);
    expect((await deleteAccount(me.agent, 'not-my-password').expect(400)).body.error).toBe(
      'Password is incorrect',
    );
    expect((await deleteAccount(me.agent, undefined).expect(400)).body.error).toContain(
      'Password is required',
    );
    await me.agent.get('/api/users/me').expect(200);
  });

  it('deletes the account, its free uploads and sessions; datasets others paid for stay readable for them', async () => {
    const me = await createLoggedInUser(testApp);
    const buyer = await createLoggedInUser(testApp);
    const paid = await uploadDataset(me.agent, { title: 'Bought before I left', price: '8.00' });
    const free = await uploadDataset(me.agent, { title: 'Free, gone with me', price: '0' });
    await grant(buyer.agent, paid);
    const [{ table_name: freeTable }] = await testApp.dataSource.query(
      `SELECT table_name FROM assets WHERE id = $1`,
      [free],
    );

    const answer = await deleteAccount(me.agent, me.user.password).expect(200);
    expect(answer.body).toEqual({
      message: 'Account deleted.',
      datasets_deleted: 1,
      datasets_kept_for_buyers: 1,
    });

    await me.agent.get('/api/users/me').expect(401);
    await testApp.http
      .post('/api/users/login')
      .set('Origin', TEST_ORIGIN)
      .send({ email: me.user.email, password: me.user.password })
      .expect(401);
    expect(await testApp.dataSource.query(`SELECT id FROM users WHERE id = $1`, [me.user.id])).toEqual([]);
    const [table] = await testApp.dataSource.query(`SELECT to_regclass($1) AS found`, [`data.${freeTable}`]);
    expect(table.found).toBeNull();

    const rows = await buyer.agent.get(`/api/assets/${paid}/data`).query({ limit: 10 }).expect(200);
    expect(rows.body.rows).toHaveLength(3);
    await testApp.http.get(`/api/assets/${paid}`).expect(404);
    const archived = (await buyer.agent.get('/api/notifications').expect(200)).body.filter(
      (notice: { kind: string }) => notice.kind === 'dataset_archived',
    );
    expect(archived).toHaveLength(1);
  });
});
