import { randomUUID } from 'node:crypto';
import type { Test } from 'supertest';
import type TestAgent from 'supertest/lib/agent';
import { insertAssetRows, uploadDataset } from '../factories/asset.factory';
import { createLoggedInUser, TestUser } from '../factories/user.factory';
import { createTestApp, TEST_ORIGIN, TestApp } from '../support/test-app';

type Agent = TestAgent<Test>;

describe('GET assets and GET assets/{id}: what each caller sees', () => {
  let testApp: TestApp;
  let owner: { user: TestUser; agent: Agent };
  let buyer: { user: TestUser; agent: Agent };
  let stranger: { user: TestUser; agent: Agent };
  const category = `Visibility-${randomUUID()}`;
  const ids = { publicFree: '', publicPaid: '', privateOwn: '', heldPrivate: '' };

  beforeAll(async () => {
    testApp = await createTestApp();
    owner = await createLoggedInUser(testApp, { name: 'Olivia Owner' });
    buyer = await createLoggedInUser(testApp);
    stranger = await createLoggedInUser(testApp);
    ids.publicFree = await uploadDataset(owner.agent, { title: 'Public free', category, price: '0' });
    ids.publicPaid = await uploadDataset(owner.agent, { title: 'Public paid', category, price: '9.99' });
    ids.privateOwn = await uploadDataset(owner.agent, { title: 'Private own', category, is_public: 'false' });
    // Bought while public, then the owner made it private: the buyer keeps seeing it.
    ids.heldPrivate = await uploadDataset(owner.agent, { title: 'Held private', category, price: '5' });
    await buyer.agent
      .post('/api/access/grant')
      .set('Origin', TEST_ORIGIN)
      .send({ assetId: ids.heldPrivate })
      .expect(200);
    await testApp.dataSource.query(`UPDATE assets SET is_public = false WHERE id = $1`, [ids.heldPrivate]);
  });
  afterAll(() => testApp.close());

  async function titlesSeenBy(agent: Agent | TestApp['http']): Promise<string[]> {
    const response = await agent.get(`/api/assets?category=${encodeURIComponent(category)}`).expect(200);
    return (response.body as { title: string }[]).map((item) => item.title).sort();
  }

  it('shows a visitor only public datasets', async () => {
    expect(await titlesSeenBy(testApp.http)).toEqual(['Public free', 'Public paid']);
  });

  it('shows a logged-in user without access only public datasets', async () => {
    expect(await titlesSeenBy(stranger.agent)).toEqual(['Public free', 'Public paid']);
  });

  it('shows the owner their private datasets too', async () => {
    expect(await titlesSeenBy(owner.agent)).toEqual([
      'Held private',
      'Private own',
      'Public free',
      'Public paid',
    ]);
  });

  it('shows a buyer the private dataset they hold', async () => {
    expect(await titlesSeenBy(buyer.agent)).toEqual(['Held private', 'Public free', 'Public paid']);
  });

  it('lists the categories of the datasets each caller may see, and only those', async () => {
    const secret = `Secret-${randomUUID()}`;
    await uploadDataset(owner.agent, { title: 'Secret category', category: secret, is_public: 'false' });
    const seenBy = async (agent: Agent | TestApp['http']) =>
      (await agent.get('/api/assets/categories').expect(200)).body as string[];
    for (const agent of [testApp.http, stranger.agent]) {
      const categories = await seenBy(agent);
      expect(categories).toContain(category);
      expect(categories).not.toContain(secret);
    }
    expect(await seenBy(owner.agent)).toEqual(expect.arrayContaining([category, secret]));
  });

  it('gives each item what the card and the detail screen need, personalised for the caller', async () => {
    const response = await owner.agent
      .get(`/api/assets?category=${encodeURIComponent(category)}`)
      .expect(200);
    const item = (response.body as { title: string }[]).find((entry) => entry.title === 'Public paid');
    expect(item).toEqual({
      id: ids.publicPaid,
      type: 'dataset',
      title: 'Public paid',
      readable_name: expect.stringMatching(/^public_paid_[0-9a-f]{4}$/),
      description: '',
      category,
      keywords: [],
      price: 9.99,
      currency: 'USD',
      billing_interval: null,
      trial_days: 0,
      is_public: true,
      visibility: 'public',
      image: null,
      subscriber_count: 0,
      source: 'CSV upload',
      author: 'Olivia Owner',
      // A personal dataset: no organisation publishes it.
      organisation: null,
      row_count: 3,
      created_at: expect.any(String),
      owned: true,
      has_access: true,
      // The owner never bought their own dataset.
      bought: false,
      live: false,
      data_updated_at: expect.any(String),
      stale_since: null,
    });
    const seenByBuyer = await buyer.agent
      .get(`/api/assets?category=${encodeURIComponent(category)}`)
      .expect(200);
    const flags = Object.fromEntries(
      (seenByBuyer.body as { title: string; owned: boolean; has_access: boolean }[]).map((entry) => [
        entry.title,
        [entry.owned, entry.has_access],
      ]),
    );
    expect(flags).toEqual({
      'Held private': [false, true],
      'Public free': [false, false],
      'Public paid': [false, false],
    });
    const seenByVisitor = await testApp.http
      .get(`/api/assets?category=${encodeURIComponent(category)}`)
      .expect(200);
    expect(
      seenByVisitor.body.every(
        (entry: { owned: boolean; has_access: boolean }) => !entry.owned && !entry.has_access,
      ),
    ).toBe(true);
  });

  it('answers the detail with the columns for callers who can see it', async () => {
    for (const agent of [testApp.http, stranger.agent, owner.agent, buyer.agent]) {
      const response = await agent.get(`/api/assets/${ids.publicFree}`).expect(200);
      expect(response.body).toMatchObject({ id: ids.publicFree, title: 'Public free' });
      expect(response.body.columns).toEqual([
        { name: 'name', label: 'name', type: 'text' },
        { name: 'amount', label: 'amount', type: 'integer' },
      ]);
    }
    await owner.agent.get(`/api/assets/${ids.privateOwn}`).expect(200);
    await buyer.agent.get(`/api/assets/${ids.heldPrivate}`).expect(200);
  });

  it('answers 404 for a private dataset exactly like a missing one', async () => {
    const missing = await testApp.http.get(`/api/assets/${randomUUID()}`).expect(404);
    for (const agent of [testApp.http, stranger.agent, buyer.agent]) {
      const hidden = await agent.get(`/api/assets/${ids.privateOwn}`).expect(404);
      expect(hidden.body).toEqual(missing.body);
    }
    await testApp.http.get(`/api/assets/${ids.heldPrivate}`).expect(404);
    await stranger.agent.get(`/api/assets/${ids.heldPrivate}`).expect(404);
  });

  it('answers 404 (never 500) for an id that is not a uuid', async () => {
    const response = await testApp.http.get('/api/assets/not-a-uuid').expect(404);
    expect(response.body.error).toBe('Dataset not found');
    await testApp.http.get("/api/assets/1' OR '1'='1/data").expect(404);
  });
});

describe('GET assets: search, category filter and paging', () => {
  let testApp: TestApp;
  let owner: { user: TestUser; agent: Agent };
  const token = randomUUID().slice(0, 8);

  beforeAll(async () => {
    testApp = await createTestApp();
    owner = await createLoggedInUser(testApp);
    await insertAssetRows(testApp.dataSource, owner.user.id, 25, {
      titlePrefix: `Weather ${token}`,
      category: `Science-${token}`,
    });
    await insertAssetRows(testApp.dataSource, owner.user.id, 5, {
      titlePrefix: `Stocks ${token}`,
      category: `Finance-${token}`,
    });
    await insertAssetRows(testApp.dataSource, owner.user.id, 3, {
      titlePrefix: `Hidden ${token}`,
      category: `Finance-${token}`,
      isPublic: false,
    });
  });
  afterAll(() => testApp.close());

  it('searches titles case-insensitively and counts all matches in X-Total-Count', async () => {
    const response = await testApp.http
      .get(`/api/assets?search=${encodeURIComponent(`weather ${token}`)}&limit=10`)
      .expect(200);
    expect(response.body).toHaveLength(10);
    expect(response.headers['x-total-count']).toBe('25');
    expect(response.body.every((item: { title: string }) => item.title.startsWith(`Weather ${token}`))).toBe(
      true,
    );
  });

  it('treats % and _ in the search text literally', async () => {
    const response = await testApp.http
      // "%" would match the "e" in "Weather <token>" if it were a wildcard.
      .get(`/api/assets?search=${encodeURIComponent(`W%ATHER ${token}`)}`)
      .expect(200);
    expect(response.body).toEqual([]);
    expect(response.headers['x-total-count']).toBe('0');
    // "_" would match the "r" in "Weather <token>" if it were a wildcard.
    const underscore = await testApp.http
      .get(`/api/assets?search=${encodeURIComponent(`WEATHE_ ${token}`)}`)
      .expect(200);
    expect(underscore.body).toEqual([]);
    expect(underscore.headers['x-total-count']).toBe('0');
  });

  it('filters by one or several categories', async () => {
    const one = await testApp.http.get(`/api/assets?category=Finance-${token}`).expect(200);
    expect(one.headers['x-total-count']).toBe('5');
    const several = await testApp.http
      .get(`/api/assets?category=Finance-${token}&category=Science-${token}&limit=1`)
      .expect(200);
    expect(several.headers['x-total-count']).toBe('30');
    const commaSeparated = await testApp.http
      .get(`/api/assets?category=Finance-${token},Science-${token}&limit=1`)
      .expect(200);
    expect(commaSeparated.headers['x-total-count']).toBe('30');
  });

  it('pages with limit and offset without repeating or skipping items', async () => {
    const seen: string[] = [];
    for (let offset = 0; offset < 30; offset += 7) {
      const page = await testApp.http
        .get(`/api/assets?category=Science-${token},Finance-${token}&limit=7&offset=${offset}`)
        .expect(200);
      expect(page.headers['x-total-count']).toBe('30');
      seen.push(...page.body.map((item: { id: string }) => item.id));
    }
    expect(seen).toHaveLength(30);
    expect(new Set(seen).size).toBe(30);
    const beyond = await testApp.http.get(`/api/assets?category=Science-${token}&offset=100`).expect(200);
    expect(beyond.body).toEqual([]);
    expect(beyond.headers['x-total-count']).toBe('25');
  });

  it("narrows to the caller's own or accessible datasets with scope", async () => {
    const owned = await owner.agent.get(`/api/assets?category=Finance-${token}&scope=owned`).expect(200);
    expect(owned.headers['x-total-count']).toBe('8');
    const visitor = await testApp.http.get(`/api/assets?category=Finance-${token}&scope=owned`).expect(200);
    expect(visitor.body).toEqual([]);
  });

  it.each(['limit=0', 'limit=1001', 'offset=-1', 'limit=abc', 'scope=everything', 'unknown=1'])(
    'rejects the query %s with 400',
    async (query) => {
      const response = await testApp.http.get(`/api/assets?${query}`).expect(400);
      expect(response.body.error).toEqual(expect.any(String));
    },
  );

  // How fast is the benchmark's question (bench/scenarios/catalogue.ts, 10,000 assets), not a test's.
  it('pages and searches 10,000 datasets', async () => {
    await insertAssetRows(testApp.dataSource, owner.user.id, 10_000, {
      titlePrefix: `Scale ${token}`,
      category: `Scale-${token}`,
    });
    await testApp.dataSource.query('ANALYZE assets');
    await owner.agent.get('/api/assets?limit=100').expect(200);
    for (let request = 0; request < 5; request++) {
      const page = await owner.agent.get(`/api/assets?limit=100&offset=${request * 100}`).expect(200);
      expect(page.body).toHaveLength(100);
    }
    const search = await testApp.http
      .get(`/api/assets?search=${encodeURIComponent(`Scale ${token} 99`)}&limit=100`)
      .expect(200);
    expect(search.headers['x-total-count']).toBe('111');
    // Other suites share this database: take the bulk rows away again.
    await testApp.dataSource.query(`DELETE FROM assets WHERE category = $1`, [`Scale-${token}`]);
  });
});
