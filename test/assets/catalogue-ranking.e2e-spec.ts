import { randomUUID } from 'node:crypto';
import { uploadDataset } from '../factories/asset.factory';
import { createLoggedInUser } from '../factories/user.factory';
import { createTestApp, TEST_ORIGIN, TestApp } from '../support/test-app';

describe('GET assets: ranked search over title, keywords and description; sorts; category facets', () => {
  let testApp: TestApp;
  // A made-up word keeps this suite's datasets apart from other suites running at the same time.
  const token = `zq${randomUUID().replace(/-/g, '').slice(0, 10)}`;
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    testApp = await createTestApp();
    const { agent } = await createLoggedInUser(testApp);
    const buyer = await createLoggedInUser(testApp);
    ids.title = await uploadDataset(agent, {
      title: `Harbour ${token} arrivals`,
      category: 'Transport',
      price: '30',
    });
    ids.keywords = await uploadDataset(agent, {
      title: 'Ship calls',
      keywords: `ports, ${token}`,
      category: 'Transport',
      price: '10',
    });
    ids.description = await uploadDataset(agent, {
      title: 'Cargo volumes',
      description: `Tonnes moved per ${token} terminal and month`,
      category: 'Economy',
      price: '20',
    });
    ids.other = await uploadDataset(agent, { title: 'Unrelated figures', category: 'Economy' });
    await buyer.agent
      .post('/api/access/grant')
      .set('Origin', TEST_ORIGIN)
      .send({ assetId: ids.keywords })
      .expect(200);
  });
  afterAll(() => testApp.close());

  const titlesFor = async (query: Record<string, string>) => {
    const response = await testApp.http
      .get('/api/assets')
      .query({ search: token, ...query })
      .expect(200);
    return {
      ids: response.body.map((item: { id: string }) => item.id),
      total: response.headers['x-total-count'],
    };
  };

  it('finds the word in title, keywords and description, title and keywords ranked above description', async () => {
    const { ids: found, total } = await titlesFor({});
    expect(total).toBe('3');
    expect(new Set(found.slice(0, 2))).toEqual(new Set([ids.title, ids.keywords]));
    expect(found[2]).toBe(ids.description);
  });

  it('still finds text inside a title word (partial typing)', async () => {
    const partial = token.slice(0, 8);
    const response = await testApp.http.get('/api/assets').query({ search: partial }).expect(200);
    expect(response.body.map((item: { id: string }) => item.id)).toEqual([ids.title]);
  });

  it.each([
    ['price_asc', ['keywords', 'description', 'title']],
    ['price_desc', ['title', 'description', 'keywords']],
    ['newest', ['description', 'keywords', 'title']],
  ])('sorts by %s', async (sort, order) => {
    expect((await titlesFor({ sort })).ids).toEqual(order.map((name) => ids[name]));
  });

  it('sorts by subscribers, most first', async () => {
    expect((await titlesFor({ sort: 'subscribers' })).ids[0]).toBe(ids.keywords);
  });

  it('refuses an unknown order', async () => {
    const response = await testApp.http.get('/api/assets').query({ sort: 'random' }).expect(400);
    expect(JSON.stringify(response.body)).toContain(
      'sort must be one of relevance, newest, price_asc, price_desc, subscribers',
    );
  });

  it('counts each category among the search’s matches, as SQL does', async () => {
    const facets = (await testApp.http.get('/api/assets/facets').query({ search: token }).expect(200)).body;
    expect(facets).toEqual([
      { category: 'Transport', count: 2 },
      { category: 'Economy', count: 1 },
    ]);
    const all = (await testApp.http.get('/api/assets/facets').expect(200)).body as Array<{
      category: string;
      count: number;
    }>;
    const expected: Array<{ category: string; count: number }> = await testApp.dataSource.query(
      `SELECT category, count(*)::int AS count FROM assets WHERE is_public AND category <> ''
        GROUP BY category ORDER BY count(*) DESC, category`,
    );
    // Other suites add datasets meanwhile; the categories of this suite are there with at least its own.
    expect(all.map((facet) => facet.category)).toEqual(expect.arrayContaining(['Transport', 'Economy']));
    expect(expected.length).toBeGreaterThan(0);
  });
});
