import { Client } from 'pg';
import { runMigrations } from '../../src/database/migrate';
import { FakeUpstream, sendJson, startFakeUpstream } from '../connectors/support/fake-upstream';
import { postCsv, uploadDataset } from '../factories/asset.factory';
import { createConnector, simpleSpec } from '../factories/connector.factory';
import { createUser, loginAs } from '../factories/user.factory';
import { ArchivedPostgres } from '../support/archived-postgres';
import { createTestAppOn, TEST_ORIGIN, TestApp } from '../support/test-app';

const DATABASE = 'dm_point_in_time';
const BUYERS = 4;
const PAID_DATASETS = 6;
const RECORDS = [{ city: 'Berlin' }, { city: 'Lima' }, { city: 'Oslo' }];
/** Bound of one wait for the writers (a backup, a number of answered writes) on a busy machine. */
const STEP_BOUND_MS = 120_000;

/** One write the app answered: what it made, when it was sent and when the answer came (epoch ms). */
interface Answered {
  id: string;
  sentAt: number;
  answeredAt: number;
}

async function until(what: string, check: () => boolean | Promise<boolean>): Promise<void> {
  for (const deadline = Date.now() + STEP_BOUND_MS; !(await check());) {
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/**
 * docs/deployment.md, "Continuous backup and point-in-time restore (pgBackRest)": a primary archives
 * its WAL to a pgBackRest repository while the app takes purchases, uploads and connector runs; a
 * full and an incremental backup are taken under those writes; the primary's machine is lost; the
 * restore to a moment between two writes brings back exactly what was committed by then.
 */
describe('deployment: continuous backup and point-in-time restore with pgBackRest', () => {
  let server: ArchivedPostgres;
  let testApp: TestApp | undefined;
  let upstream: FakeUpstream;
  let check: Client;

  beforeAll(async () => {
    upstream = await startFakeUpstream((_request, response) => sendJson(response, RECORDS));
    server = await ArchivedPostgres.start();
    const admin = new Client({ connectionString: server.urlOf('postgres') });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${DATABASE}`);
    await admin.end();
    await runMigrations(server.urlOf(DATABASE));
    testApp = await createTestAppOn(server.urlOf(DATABASE), { CONNECTOR_ALLOW_PRIVATE_NETWORKS: 'true' });
  }, STEP_BOUND_MS);

  afterAll(async () => {
    await check?.end().catch(() => undefined);
    await testApp?.close();
    await server?.destroy();
    await upstream?.close();
  });

  it(
    'restores to a chosen moment under writes: purchases, uploads and connector runs committed by then, none after',
    async () => {
      const app = testApp!;
      const sql = app.dataSource;
      const publisher = await loginAs(app, await createUser(sql));
      const paid: string[] = [];
      for (let index = 0; index < PAID_DATASETS; index++)
        paid.push(await uploadDataset(publisher, { price: '4.50', is_public: 'true' }));
      const uploaderUser = await createUser(sql);
      const uploader = await loginAs(app, uploaderUser);
      const runnerUser = await createUser(sql);
      const runner = await loginAs(app, runnerUser);
      const connector = await createConnector(sql, { spec: simpleSpec(upstream.origin) });
      const instance = (
        await runner
          .post('/api/connectors/activate')
          .set('Origin', TEST_ORIGIN)
          .send({ connector_id: connector.id })
          .expect(201)
      ).body.id as string;

      // The writers: buyers (each a fresh user buying every paid dataset), an uploader and a connector's Run Now.
      let stopped = false;
      const purchases: Answered[] = [];
      const uploads: Answered[] = [];
      const runs: Answered[] = [];
      const buyer = async () => {
        while (!stopped) {
          const agent = await loginAs(app, await createUser(sql));
          for (const dataset of paid) {
            if (stopped) return;
            const sentAt = Date.now();
            const answer = await agent
              .post('/api/access/grant')
              .set('Origin', TEST_ORIGIN)
              .send({ assetId: dataset })
              .expect(200);
            purchases.push({ id: answer.body.purchase.id, sentAt, answeredAt: Date.now() });
          }
        }
      };
      const uploading = async () => {
        for (let index = 0; !stopped; index++) {
          const sentAt = Date.now();
          const answer = await postCsv(uploader, `city,value\nBerlin,${index}\nLima,2\nOslo,3\n`, {
            title: `Upload ${index}`,
          }).expect(201);
          uploads.push({ id: answer.body.id, sentAt, answeredAt: Date.now() });
        }
      };
      const running = async () => {
        while (!stopped) {
          const sentAt = Date.now();
          const answer = await runner
            .post(`/api/connectors/run/${instance}`)
            .set('Origin', TEST_ORIGIN)
            .expect(200);
          expect(answer.body.rowCount).toBe(RECORDS.length);
          runs.push({ id: answer.body.run_id, sentAt, answeredAt: Date.now() });
        }
      };
      const writers = Promise.all([...Array.from({ length: BUYERS }, buyer), uploading(), running()]);
      // Any writer's failure ends the test at once instead of after the waits below.
      let writerFailure: unknown;
      writers.catch((error) => (writerFailure = error));
      const writesSoFar = () => {
        if (writerFailure) throw writerFailure;
        return purchases.length + uploads.length + runs.length;
      };
      const afterMoreWrites = async (count: number) => {
        const start = { purchases: purchases.length, uploads: uploads.length, runs: runs.length };
        await until(`${count} more answers of each write`, () => {
          writesSoFar();
          return (
            purchases.length >= start.purchases + count &&
            uploads.length >= start.uploads + count &&
            runs.length >= start.runs + count
          );
        });
      };

      try {
        await afterMoreWrites(2);
        await server.backup('full');
        await afterMoreWrites(2);
        await server.backup('incr');
        await afterMoreWrites(2);
        expect(await server.backupTypes()).toEqual(['full', 'incr']);

        // The moment to restore to, read from the server's clock while the writes go on.
        check = new Client({ connectionString: server.urlOf(DATABASE) });
        await check.connect();
        const [{ target }] = (await check.query(`SELECT clock_timestamp()::text AS target`)).rows;
        const targetMs = new Date(target).getTime();
        await afterMoreWrites(2);
        stopped = true;
        await writers;

        // What was committed by the target, by each row's commit timestamp (track_commit_timestamp).
        // Purchases are never updated afterwards in this test, so their row version is the first one.
        const committedBy = async (query: string, params: unknown[] = []) =>
          (await check.query(query, [target, ...params])).rows.map((row) => row.id as string).sort();
        const purchasesBy = await committedBy(
          `SELECT id FROM purchases WHERE pg_xact_commit_timestamp(xmin) <= $1::timestamptz`,
        );
        // An upload's catalogue row is updated afterwards (its profile), but its table's rows are
        // written once, in the upload's own transaction: their commit is the upload's.
        const uploadsBy: string[] = [];
        const uploaded: Array<{ id: string; table_name: string }> = (
          await check.query(`SELECT id, table_name FROM assets WHERE owner_id = $1`, [uploaderUser.id])
        ).rows;
        for (const upload of uploaded) {
          const [{ committed }] = (
            await check.query(
              `SELECT pg_xact_commit_timestamp(xmin) <= $1::timestamptz AS committed FROM data."${upload.table_name}" LIMIT 1`,
              [target],
            )
          ).rows;
          if (committed) uploadsBy.push(upload.id);
        }
        uploadsBy.sort();
        // A run's row is updated when it ends: one ended by the target is restored as it ended.
        const runsEndedBy: Array<{ id: string; status: string; row_count: number }> = (
          await check.query(
            `SELECT id, status, row_count FROM connector_runs
            WHERE instance_id = $2 AND pg_xact_commit_timestamp(xmin) <= $1::timestamptz ORDER BY id`,
            [target, instance],
          )
        ).rows;
        const [{ count: purchasesInAll }] = (
          await check.query(`SELECT count(*)::int AS count FROM purchases`)
        ).rows;
        // Writes on both sides of the target, and every answered one was committed.
        expect(purchasesBy.length).toBeGreaterThan(0);
        expect(purchasesInAll).toBe(purchases.length);
        expect(purchasesInAll).toBeGreaterThan(purchasesBy.length);
        expect(uploadsBy.length).toBeLessThan(uploads.length);
        expect(runsEndedBy.length).toBeLessThan(runs.length);
        await check.end();

        // Everything written so far is in the repository; then the machine is lost.
        await server.archiveCurrentWal();
        await testApp!.close();
        testApp = undefined;
        await server.destroyPrimary();
        const restoreMs = await server.restoreTo(target);
        console.log(
          `point-in-time restore: ${purchases.length} purchases, ${uploads.length} uploads, ${runs.length} runs written; ` +
            `restored to ${target} in ${restoreMs} ms with ${purchasesBy.length} purchases`,
        );

        check = new Client({ connectionString: server.urlOf(DATABASE) });
        await check.connect();
        const restored = async (query: string, params: unknown[] = []) =>
          (await check.query(query, params)).rows.map((row) => row.id as string).sort();
        expect(await restored(`SELECT id FROM purchases`)).toEqual(purchasesBy);
        expect(await restored(`SELECT id FROM assets WHERE owner_id = $1`, [uploaderUser.id])).toEqual(
          uploadsBy,
        );
        // The clients' own view agrees: what was answered before the target is there, what was sent after is not.
        const restoredPurchases = new Set(purchasesBy);
        expect(purchases.filter((p) => p.answeredAt < targetMs && !restoredPurchases.has(p.id))).toEqual([]);
        expect(purchases.filter((p) => p.sentAt > targetMs && restoredPurchases.has(p.id))).toEqual([]);
        // Each restored upload has its whole table; each purchase its grant.
        for (const id of uploadsBy) {
          const [{ table_name: table }] = (
            await check.query(`SELECT table_name FROM assets WHERE id = $1`, [id])
          ).rows;
          expect(
            (await check.query(`SELECT count(*)::int AS count FROM data."${table}"`)).rows[0].count,
          ).toBe(3);
        }
        const ungranted = await check.query(
          `SELECT p.id FROM purchases p
          WHERE NOT EXISTS (SELECT 1 FROM access_grants g WHERE g.user_id = p.user_id AND g.asset_id = p.asset_id)`,
        );
        expect(ungranted.rows).toEqual([]);

        // Connector state: runs ended by the target as they ended, their rows in the output table;
        // a run under way at the target comes back as running (the worker's takeover marks it), none started later.
        const restoredRuns: Array<{ id: string; status: string; row_count: number }> = (
          await check.query(
            `SELECT id, status, row_count FROM connector_runs WHERE instance_id = $1 ORDER BY id`,
            [instance],
          )
        ).rows;
        const ended = new Set(runsEndedBy.map((run) => run.id));
        expect(restoredRuns.filter((run) => ended.has(run.id))).toEqual(runsEndedBy);
        expect(restoredRuns.filter((run) => !ended.has(run.id) && run.status !== 'running')).toEqual([]);
        expect(
          restoredRuns.filter((run) => runs.find((r) => r.id === run.id && r.sentAt > targetMs)),
        ).toEqual([]);
        const [{ output_table_name: output }] = (
          await check.query(`SELECT output_table_name FROM connector_instances WHERE id = $1`, [instance])
        ).rows;
        const rowsByRun: Array<{ id: string; count: number }> = (
          await check.query(
            `SELECT _run_id AS id, count(*)::int AS count FROM data."${output}" GROUP BY _run_id`,
          )
        ).rows;
        for (const run of runsEndedBy.filter((r) => r.status === 'succeeded'))
          expect(rowsByRun.find((row) => row.id === run.id)?.count).toBe(run.row_count);
      } finally {
        stopped = true;
        await writers.catch(() => undefined);
      }
    },
    4 * STEP_BOUND_MS,
  );
});
