import { hash } from 'argon2';
import { createPost } from '../factories/blog.factory';
import { createUser } from '../factories/user.factory';
import { AppProcess, stopAllApps } from './support/app-process';
import { createReliabilityDatabase, ReliabilityDatabase, strayDataTables } from './support/database';
import { HttpClient } from './support/http-client';
import { CatalogueDataset, ClientRecord, WorkloadClient } from './support/mixed-workload';

const CLIENTS = 50;
/** RELIABILITY_LOAD_SECONDS shortens or lengthens the run; the default is one minute. */
const LOAD_SECONDS = Number(process.env.RELIABILITY_LOAD_SECONDS ?? 60);
const CATALOGUE_ROWS = 200;
const POSTS = 4;

function catalogueCsv(index: number): string {
  let csv = 'region,month,sales,returns\n';
  for (let row = 1; row <= CATALOGUE_ROWS; row++) {
    csv += `region-${(row % 9) + 1},2024-${String((row % 12) + 1).padStart(2, '0')}-01,${row * index}.25,${row % 7}\n`;
  }
  return csv;
}

function percentile(values: number[], share: number): number {
  const sorted = [...values].sort((left, right) => left - right);
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * share))] ?? 0;
}

function summary(records: ClientRecord[]): string {
  const byOperation = new Map<string, number[]>();
  for (const record of records) {
    for (const [operation, latencies] of record.latencies) {
      byOperation.set(operation, [...(byOperation.get(operation) ?? []), ...latencies]);
    }
  }
  const lines = [...byOperation].map(
    ([operation, latencies]) =>
      `${operation.padEnd(10)} ${String(latencies.length).padStart(6)} ops   p50 ${percentile(latencies, 0.5)} ms   p95 ${percentile(latencies, 0.95)} ms   max ${Math.max(...latencies)} ms`,
  );
  const total = [...byOperation.values()].reduce((sum, latencies) => sum + latencies.length, 0);
  return [`${CLIENTS} clients, ${LOAD_SECONDS} s, ${total} operations`, ...lines].join('\n');
}

describe(`reliability: ${CLIENTS} clients mixing reads and writes for ${LOAD_SECONDS} s`, () => {
  let database: ReliabilityDatabase;
  let app: AppProcess;

  beforeAll(async () => {
    database = await createReliabilityDatabase('dm_rel_load');
    // Each client sends its own X-Forwarded-For, so per-visitor limits (likes) apply per client.
    app = await AppProcess.start({
      name: 'mixed-load',
      databaseUrl: database.url,
      env: { TRUST_PROXY: 'true' },
    });
  });

  afterAll(async () => {
    await stopAllApps();
    await database?.drop();
  });

  async function prepareCatalogue(): Promise<CatalogueDataset[]> {
    const publisher = await createUser(database.dataSource);
    const client = new HttpClient(app.baseUrl);
    await client.login(publisher.email, publisher.password);
    const datasets: CatalogueDataset[] = [];
    for (let index = 1; index <= 8; index++) {
      const paid = index % 2 === 0;
      const answer = await client.uploadCsv(catalogueCsv(index), {
        title: `Load catalogue ${index}`,
        price: paid ? '4.99' : '0',
        is_public: 'true',
      });
      if (answer.status !== 201)
        throw new Error(`Catalogue upload answered ${answer.status}: ${answer.text}`);
      const { readable_name: table } = await client.expect<{ readable_name: string }>(
        'GET',
        `/api/assets/${answer.body.id}`,
        200,
      );
      datasets.push({ id: answer.body.id, paid, rows: CATALOGUE_ROWS, table });
    }
    return datasets;
  }

  /** Verified users sharing one password hash (hashing 50 times only slows the set-up), logged in through the API. */
  async function prepareClients(
    datasets: CatalogueDataset[],
    postSlugs: string[],
  ): Promise<WorkloadClient[]> {
    const password = 'load-client-password';
    const users: Array<{ id: string; email: string }> = await database.dataSource.query(
      `INSERT INTO users (email, name, password_hash, email_verified_at)
       SELECT 'load-client-' || n || '-' || gen_random_uuid() || '@example.test', 'Load client ' || n, $1, now()
         FROM generate_series(1, $2) AS n
       RETURNING id, email`,
      [await hash(password), CLIENTS],
    );
    const clients: WorkloadClient[] = [];
    // A few logins at a time: each one is a deliberately CPU-heavy password check.
    for (let start = 0; start < users.length; start += 10) {
      const batch = users.slice(start, start + 10).map(async (user, offset) => {
        const index = start + offset;
        const http = new HttpClient(app.baseUrl, `10.77.${Math.floor(index / 200)}.${(index % 200) + 1}`);
        await http.login(user.email, password);
        const { api_key: apiKey } = await http.expect<{ api_key: string }>('POST', '/api/dev/apikey', 200, {
          json: { email: user.email },
        });
        return new WorkloadClient(http, user.id, apiKey, { datasets, postSlugs }, `c${index}`, {
          email: user.email,
          password,
        });
      });
      clients.push(...(await Promise.all(batch)));
    }
    return clients;
  }

  it('answers no 5xx, loses and duplicates no grant, and keeps every count exact', async () => {
    const setUpStarted = Date.now();
    const datasets = await prepareCatalogue();
    const posts = await Promise.all(
      Array.from({ length: POSTS }, (_, index) =>
        createPost(database.dataSource, { title: `Load post ${index}` }),
      ),
    );
    const clients = await prepareClients(
      datasets,
      posts.map((post) => post.slug),
    );

    const setUpMs = Date.now() - setUpStarted;
    const deadline = Date.now() + LOAD_SECONDS * 1000;
    await Promise.all(clients.map((client) => client.run(deadline)));
    const records = clients.map((client) => client.record);
    const queuedOut = records.reduce((sum, record) => sum + record.queriesQueuedOut, 0);
    console.log(`set-up ${setUpMs} ms\n${summary(records)}\nqueries refused at the cap (429): ${queuedOut}`);

    // The contract under load: every answer was one the API promises (no 5xx, no hang, no reset).
    expect(records.flatMap((record) => record.failures)).toEqual([]);

    const datasetIds = datasets.map((dataset) => dataset.id);
    const userIds = records.map((record) => record.userId);
    const grants: Array<{ user_id: string; asset_id: string }> = await database.dataSource.query(
      `SELECT user_id, asset_id FROM access_grants WHERE asset_id = ANY($1) AND user_id = ANY($2)`,
      [datasetIds, userIds],
    );
    const expectedGrants = records.flatMap((record) =>
      [...record.held].map((assetId) => `${record.userId}/${assetId}`),
    );
    expect(grants.map((grant) => `${grant.user_id}/${grant.asset_id}`).sort()).toEqual(expectedGrants.sort());

    // Each dataset's subscriber count is exactly its holders other than the owner: the clients holding it.
    const counts: Array<{ id: string; subscriber_count: number; holders: number }> =
      await database.dataSource.query(
        `SELECT a.id, a.subscriber_count,
                (SELECT count(*)::int FROM access_grants g
                  WHERE g.asset_id = a.id AND g.user_id IS DISTINCT FROM a.owner_id) AS holders
           FROM assets a`,
      );
    expect(counts.filter((row) => row.subscriber_count !== row.holders)).toEqual([]);
    for (const dataset of datasets) {
      const holders = records.filter((record) => record.held.has(dataset.id)).length;
      expect(counts.find((row) => row.id === dataset.id)?.subscriber_count).toBe(holders);
    }

    // One paid purchase per user and paid dataset: neither a double click nor a Get after Remove charged twice.
    const purchases: Array<{ user_id: string; asset_id: string; paid: number }> =
      await database.dataSource.query(
        `SELECT user_id, asset_id, count(*)::int AS paid FROM purchases
        WHERE status = 'paid' AND user_id = ANY($1) GROUP BY user_id, asset_id`,
        [userIds],
      );
    const expectedPurchases = records.flatMap((record) =>
      [...record.purchases].map(([assetId, paid]) => `${record.userId}/${assetId}=${paid}`),
    );
    expect(purchases.map((row) => `${row.user_id}/${row.asset_id}=${row.paid}`).sort()).toEqual(
      expectedPurchases.sort(),
    );

    // Likes and views: every counted call is in the total, and no two likes read the same count.
    const stored: Array<{ slug: string; likes: number; views: number }> = await database.dataSource.query(
      `SELECT slug, likes, views FROM blog_posts WHERE slug = ANY($1)`,
      [posts.map((post) => post.slug)],
    );
    for (const post of stored) {
      const likeAnswers = records.flatMap((record) => record.likes.get(post.slug) ?? []);
      expect({ slug: post.slug, likes: post.likes }).toEqual({ slug: post.slug, likes: likeAnswers.length });
      expect(new Set(likeAnswers).size).toBe(likeAnswers.length);
      const views = records.reduce((sum, record) => sum + (record.views.get(post.slug) ?? 0), 0);
      expect({ slug: post.slug, views: post.views }).toEqual({ slug: post.slug, views });
    }

    // Every accepted upload is a complete dataset owned by its uploader; nothing else was left behind.
    const uploads = records.flatMap((record) => record.uploads.map((id) => ({ id, owner: record.userId })));
    const uploaded: Array<{ id: string; owner_id: string; row_count: number; table_name: string }> =
      await database.dataSource.query(
        `SELECT id, owner_id, row_count::int AS row_count, table_name FROM assets WHERE title LIKE 'Load upload %'`,
      );
    expect(uploaded.map((row) => `${row.id}/${row.owner_id}`).sort()).toEqual(
      uploads.map((upload) => `${upload.id}/${upload.owner}`).sort(),
    );
    expect(uploaded.every((row) => row.row_count === 20)).toBe(true);
    const sample = uploaded.slice(0, 20);
    for (const row of sample) {
      const [{ rows }] = await database.dataSource.query(
        `SELECT count(*)::int AS rows FROM data."${row.table_name}"`,
      );
      expect(rows).toBe(20);
    }
    expect(await strayDataTables(database.dataSource)).toEqual([]);
    expect(app.isRunning).toBe(true);
  });
});
