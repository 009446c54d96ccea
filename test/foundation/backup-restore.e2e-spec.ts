import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { backUp, restore, secretsOf } from '../../src/backup/backup';
import { runMigrations } from '../../src/database/migrate';
import { FakeUpstream, sendJson, startFakeUpstream } from '../connectors/support/fake-upstream';
import { uploadDataset } from '../factories/asset.factory';
import { createConnector, simpleSpec } from '../factories/connector.factory';
import { createUser, loginAs } from '../factories/user.factory';
import { ReplicatedPostgres } from '../support/replicated-postgres';
import { createTestAppOn, TEST_ORIGIN, TestApp } from '../support/test-app';

const SECRETS = {
  SESSION_SECRET: 'backup-test-session-secret-0123456789abcdef',
  ENCRYPTION_KEY: 'a1b2c3d4e5f60718293a4b5c6d7e8f90a1b2c3d4e5f60718293a4b5c6d7e8f90',
};

/**
 * npm run backup and npm run restore (src/backup): back up, wipe, restore, and the app reads the
 * same rows, logs the same user in and runs a connection with the credentials stored before.
 * On a PostgreSQL 15 server of its own (the Debian packages .ci/run installs), so the system's
 * pg_dump fits the server whichever server the rest of the run uses.
 */
describe('backup and restore of the database and its secrets', () => {
  let cluster: ReplicatedPostgres;
  let upstream: FakeUpstream;
  let folder: string;
  let app: TestApp | undefined;
  const url = () => cluster.urlOf(cluster.primaryPort, 'dm_backup');

  beforeAll(async () => {
    folder = mkdtempSync(join(tmpdir(), 'dm-backup-'));
    upstream = await startFakeUpstream(async (request, response) => {
      if (request.headers['x-api-key'] !== 'upstream-key-42') {
        response.writeHead(401).end();
        return;
      }
      sendJson(response, [{ city: 'Berlin' }, { city: 'Lima' }]);
    });
    cluster = await ReplicatedPostgres.start();
    const admin = new Client({ connectionString: cluster.primaryUrl });
    await admin.connect();
    await admin.query('CREATE DATABASE dm_backup');
    await admin.end();
    await runMigrations(url());
  });
  afterAll(async () => {
    await app?.close();
    await upstream?.close();
    await cluster?.destroy();
    rmSync(folder, { recursive: true, force: true });
  });

  const start = () => createTestAppOn(url(), { ...SECRETS, CONNECTOR_ALLOW_PRIVATE_NETWORKS: 'true' });

  it('round-trips rows, logins and stored connector credentials', async () => {
    app = await start();
    const user = await createUser(app.dataSource, { proUser: true });
    const agent = await loginAs(app, user);
    const datasetId = await uploadDataset(agent, { title: 'Kept rows' }, 'name,amount\nalpha,1\nbeta,2\n');
    const connector = await createConnector(app.dataSource, {
      spec: {
        ...simpleSpec(upstream.origin),
        auth: { type: 'api_key', in: 'header', name: 'X-Api-Key', fields: [{ key: 'key' }] },
      },
    });
    const { id: instanceId } = (
      await agent
        .post('/api/connectors/activate')
        .set('Origin', TEST_ORIGIN)
        .send({ connector_id: connector.id, auth_data: { key: 'upstream-key-42' } })
        .expect(201)
    ).body as { id: string };
    await app.close();
    app = undefined;

    const file = join(folder, 'marketplace.dump');
    await backUp(url(), file, SECRETS);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(secretsOf(file)).toEqual(SECRETS);
    // A second backup never overwrites the first.
    await expect(backUp(url(), file, SECRETS)).rejects.toThrow(/EEXIST/);

    // Wipe: every table of the app and of the data schema gone.
    const wipe = new Client({ connectionString: url() });
    await wipe.connect();
    await wipe.query('DROP SCHEMA public CASCADE; DROP SCHEMA data CASCADE; CREATE SCHEMA public');
    await wipe.end();

    await restore(url(), file);

    app = await start();
    const again = await loginAs(app, user);
    const preview = await again.get(`/api/assets/${datasetId}/data`).expect(200);
    expect(preview.body.rows).toEqual([
      { name: 'alpha', amount: 1 },
      { name: 'beta', amount: 2 },
    ]);
    const run = await again.post(`/api/connectors/run/${instanceId}`).set('Origin', TEST_ORIGIN).expect(200);
    expect(run.body).toMatchObject({ rowCount: 2 });
    const { readable_name: table } = (await again.get(`/api/assets/${datasetId}`).expect(200)).body;
    const answer = await again
      .post('/api/query')
      .set('Origin', TEST_ORIGIN)
      .send({ sql: `SELECT count(*)::int AS n FROM ${table}` })
      .expect(200);
    expect(answer.body.rows).toEqual([[2]]);
  });
});
