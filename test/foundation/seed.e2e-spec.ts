import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { SEED_POSTS } from '../../src/blog/seed/blog-seed-posts';
import { SEED_CONNECTORS } from '../../src/connectors/seed/seed-connectors';
import { runMigrations } from '../../src/database/migrate';
import { SEED_DATASETS } from '../../src/database/seed/datasets.seeder';
import { DEMO_USER } from '../../src/database/seed/seed-context';
import { SeedService } from '../../src/database/seed/seed.service';
import { createTestDatabase, TestDatabase } from '../setup/test-database';
import { loadConfig } from '../../src/config/app-config';
import { createTestAppOn, TEST_ORIGIN, TestApp } from '../support/test-app';

interface Counts {
  users: number;
  assets: number;
  connectors: number;
  posts: number;
  dataTables: number;
}

async function counts(testApp: TestApp): Promise<Counts> {
  const [row] = await testApp.dataSource.query(
    `SELECT (SELECT count(*)::int FROM users) AS users,
            (SELECT count(*)::int FROM assets) AS assets,
            (SELECT count(*)::int FROM connectors) AS connectors,
            (SELECT count(*)::int FROM blog_posts) AS posts,
            (SELECT count(*)::int FROM information_schema.tables WHERE table_schema = 'data') AS "dataTables"`,
  );
  return row;
}

describe('seed data at start-up', () => {
  // Its own database: the seed is checked against an empty one, and other suites must not see it.
  let database: TestDatabase;
  const apps: TestApp[] = [];

  beforeAll(async () => {
    database = await createTestDatabase('dm_seed');
    await runMigrations(database.url);
  });
  afterAll(async () => {
    await Promise.all(apps.map((testApp) => testApp.close()));
    await database?.drop();
  });

  async function start(seed: 'true' | 'false'): Promise<TestApp> {
    const testApp = await createTestAppOn(database.url, { SEED: seed });
    apps.push(testApp);
    return testApp;
  }

  /** A production start as an operator makes it: real secrets, and SEED only when given. */
  async function startInProduction(seed?: 'true'): Promise<TestApp> {
    const testApp = await createTestAppOn(database.url, {
      NODE_ENV: 'production',
      ...(seed ? { SEED: seed } : {}),
    });
    apps.push(testApp);
    return testApp;
  }

  function logInAsDemo(testApp: TestApp) {
    return testApp.http
      .post('/api/users/login')
      .set('Origin', TEST_ORIGIN)
      .send({ email: DEMO_USER.email, password: DEMO_USER.password });
  }

  it('seeds nothing on a production start without SEED', async () => {
    const config = loadConfig({
      NODE_ENV: 'production',
      SESSION_SECRET: 's'.repeat(40),
      ENCRYPTION_KEY: 'ab'.repeat(32),
      ALLOW_TEST_PAYMENTS_IN_PRODUCTION: 'true',
    });
    expect(config.seed).toBe(false);
    const testApp = await startInProduction();
    expect(await counts(testApp)).toEqual({ users: 0, assets: 0, connectors: 0, posts: 0, dataTables: 0 });
  });

  it('writes nothing when SEED=false', async () => {
    const testApp = await start('false');
    expect(await counts(testApp)).toEqual({ users: 0, assets: 0, connectors: 0, posts: 0, dataTables: 0 });
  });

  it('fills an empty database with the demo account, datasets, connectors and posts', async () => {
    const testApp = await start('true');
    expect(await counts(testApp)).toEqual({
      users: 1,
      assets: SEED_DATASETS.length,
      // The live demo adds its connector and its connection's table (published after the first run).
      connectors: SEED_CONNECTORS.length + 1,
      posts: SEED_POSTS.length,
      dataTables: SEED_DATASETS.length + 1,
    });
    const login = await testApp.http
      .post('/api/users/login')
      .set('Origin', TEST_ORIGIN)
      .send({ email: DEMO_USER.email, password: DEMO_USER.password })
      .expect(200);
    expect(login.body).toMatchObject({ email: DEMO_USER.email, pro_user: 1, blog_editor: 1 });

    // The README's SQL example, as printed, runs on the demo data.
    const readme = readFileSync(join(__dirname, '..', '..', 'README.md'), 'utf8');
    const example = /-d '(\{"sql": .*\})'/.exec(readme);
    expect(example).not.toBeNull();
    const answer = await testApp.http
      .post('/api/query')
      .set('Origin', TEST_ORIGIN)
      .set('Cookie', login.headers['set-cookie'])
      .send(JSON.parse(example![1]))
      .expect(200);
    expect(answer.body.row_count).toBeGreaterThan(0);
  });

  it('locks the published demo password on a production start, and logs its sessions out', async () => {
    const local = await start('true');
    const session = local.agent();
    await session
      .post('/api/users/login')
      .set('Origin', TEST_ORIGIN)
      .send({ email: DEMO_USER.email, password: DEMO_USER.password })
      .expect(200);
    const production = await startInProduction();
    await logInAsDemo(production).expect(401);
    await session.get('/api/users/me').expect(401);
    expect(await counts(production)).toMatchObject({ users: 1, assets: SEED_DATASETS.length });
  });

  it('adds nothing on later starts or when two processes seed at once', async () => {
    const first = await start('true');
    const before = await counts(first);
    const second = await start('true');
    await Promise.all([first.app.get(SeedService).seed(), second.app.get(SeedService).seed()]);
    expect(await counts(second)).toEqual(before);
  });
});

describe('demo content in production, asked for with SEED=true', () => {
  let database: TestDatabase;
  let testApp: TestApp | undefined;

  beforeAll(async () => {
    database = await createTestDatabase('dm_seed_prod');
    await runMigrations(database.url);
  });
  afterAll(async () => {
    await testApp?.close();
    await database?.drop();
  });

  it('seeds the content but its owner cannot be logged into with the published password', async () => {
    testApp = await createTestAppOn(database.url, { NODE_ENV: 'production', SEED: 'true' });
    const [row] = await testApp.dataSource.query(
      `SELECT (SELECT count(*)::int FROM users) AS users, (SELECT count(*)::int FROM assets) AS assets`,
    );
    expect(row).toEqual({ users: 1, assets: SEED_DATASETS.length });
    await testApp.http
      .post('/api/users/login')
      .set('Origin', TEST_ORIGIN)
      .send({ email: DEMO_USER.email, password: DEMO_USER.password })
      .expect(401);
  });
});
