import { DatasetsSeeder, SEED_DATASETS } from '../../src/database/seed/datasets.seeder';
import { createUser } from '../factories/user.factory';
import { createTestApp, TestApp } from '../support/test-app';

describe('DatasetsSeeder', () => {
  let testApp: TestApp;

  beforeAll(async () => {
    testApp = await createTestApp();
  });
  afterAll(() => testApp.close());

  it('ingests about a dozen varied datasets for the demo user through the real ingest, once', async () => {
    const demo = await createUser(testApp.dataSource, { name: 'Demo User' });
    const seeder = testApp.app.get(DatasetsSeeder);
    await seeder.run({ demoUserId: demo.id });
    await seeder.run({ demoUserId: demo.id });

    const assets: {
      title: string;
      category: string;
      price: string;
      is_public: boolean;
      row_count: string;
      table_name: string;
      columns: { type: string }[];
      subscriber_count: number;
    }[] = await testApp.dataSource.query(`SELECT * FROM assets WHERE owner_id = $1`, [demo.id]);
    expect(assets).toHaveLength(SEED_DATASETS.length);
    expect(assets.length).toBeGreaterThanOrEqual(10);
    expect(new Set(assets.map((asset) => asset.category))).toEqual(
      new Set(['Finance', 'Marketing', 'Science', 'Technology', 'Health', 'Government']),
    );
    expect(assets.some((asset) => Number(asset.price) === 0)).toBe(true);
    expect(assets.some((asset) => Number(asset.price) > 0)).toBe(true);
    expect(assets.filter((asset) => !asset.is_public)).toHaveLength(1);
    for (const asset of assets) {
      expect(Number(asset.row_count)).toBeGreaterThanOrEqual(30);
      expect(Number(asset.row_count)).toBeLessThanOrEqual(500);
      // The demo user holds each (as its uploader), which is no subscription.
      expect(asset.subscriber_count).toBe(0);
      const [{ count }] = await testApp.dataSource.query(
        `SELECT count(*)::int AS count FROM data."${asset.table_name}"`,
      );
      expect(count).toBe(Number(asset.row_count));
      // Every file has typed columns (numbers, dates or booleans), not text only.
      expect(asset.columns.some((column) => column.type !== 'text')).toBe(true);
    }
  });
});
