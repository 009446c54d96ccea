import { execFile } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { FakeUpstream, sendJson, startFakeUpstream } from '../connectors/support/fake-upstream';
import { uploadDataset } from '../factories/asset.factory';
import { createConnector, simpleSpec } from '../factories/connector.factory';
import { createUser, loginAs } from '../factories/user.factory';
import { TEST_ORIGIN, TestApp } from '../support/test-app';
import { AppProcess, SECRETS } from './support/app-process';

const ROOT = resolve(__dirname, '..', '..');
const cli = (name: 'backup' | 'restore') => join(ROOT, 'dist', 'src', 'cli', `${name}.js`);

/** Runs `npm run backup` or `npm run restore` as built, on the embedded database of `dataDir`. */
async function runCli(
  name: 'backup' | 'restore',
  dataDir: string,
  file: string,
  secrets: Partial<typeof SECRETS> = {},
): Promise<string> {
  const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir, NO_COLOR: '1', ...secrets };
  delete env.DATABASE_URL;
  const { stdout } = await promisify(execFile)(process.execPath, [cli(name), file], { cwd: ROOT, env });
  return stdout;
}

/** The embedded server of a running app, reached as its own user (the password is kept beside it). */
function embeddedUrl(dataDir: string): string {
  const port = readFileSync(join(dataDir, 'db', 'postgres', 'postmaster.pid'), 'utf8').split('\n')[3];
  const password = readFileSync(join(dataDir, 'db', 'postgres-password'), 'utf8').trim();
  return `postgres://postgres:${password}@127.0.0.1:${port}/marketplace`;
}

/**
 * npm run backup and npm run restore on the embedded database, as on a machine with only Node (the
 * embedded package has no pg_dump, and none of its version need be installed): a base backup taken
 * while the app runs, restored into an empty folder with no secrets in the environment, as on a new
 * machine; the app started there reads the same rows, logs the same user in and runs a connection
 * with the credentials stored before, and what was written after the backup is not there.
 */
describe('reliability: backup and restore of the embedded database', () => {
  let upstream: FakeUpstream;
  let first: AppProcess | undefined;
  let second: AppProcess | undefined;
  let dataSource: DataSource | undefined;
  const folder = mkdtempSync(join(tmpdir(), 'dm-embedded-backup-'));

  beforeAll(async () => {
    upstream = await startFakeUpstream(async (incoming, response) => {
      if (incoming.headers['x-api-key'] !== 'upstream-key-42') {
        response.writeHead(401).end();
        return;
      }
      sendJson(response, [{ city: 'Berlin' }, { city: 'Lima' }]);
    });
  });
  afterAll(async () => {
    await dataSource?.destroy().catch(() => undefined);
    await first?.stop();
    await second?.stop();
    await upstream?.close();
    rmSync(folder, { recursive: true, force: true });
  });

  const client = (app: AppProcess, source: DataSource) =>
    ({
      dataSource: source,
      http: request(app.baseUrl),
      agent: () => request.agent(app.baseUrl),
    }) as unknown as TestApp;

  it('round-trips rows, logins and stored connector credentials onto a new machine', async () => {
    first = await AppProcess.start({ name: 'embedded-backup', env: { APP_ORIGIN: TEST_ORIGIN } });
    dataSource = new DataSource({ type: 'postgres', url: embeddedUrl(first.dataDir), extra: { max: 2 } });
    await dataSource.initialize();
    const user = await createUser(dataSource, { proUser: true });
    const agent = await loginAs(client(first, dataSource), user);
    const datasetId = await uploadDataset(agent, { title: 'Kept rows' }, 'name,amount\nalpha,1\nbeta,2\n');
    const connector = await createConnector(dataSource, {
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

    const file = join(folder, 'marketplace.backup');
    const said = await runCli('backup', first.dataDir, file, SECRETS);
    expect(said).toContain(`Backup written to ${file}`);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const laterId = await uploadDataset(agent, { title: 'Written after the backup' }, 'name\nlater\n');
    await dataSource.destroy();
    // Stopping removes the first folder: nothing of it is left for the restore to lean on.
    await first.stop();
    first = undefined;

    const fresh = mkdtempSync(join(tmpdir(), 'dm-embedded-restored-'));
    // As root the embedded server runs as a system user of its own, which must reach the folder.
    chmodSync(fresh, 0o755);
    expect(await runCli('restore', fresh, file)).toContain(`Restored ${file}`);

    // No secrets in the environment: the restored .data/secrets.json must hold the backup's.
    second = await AppProcess.start({
      name: 'embedded-restored',
      dataDir: fresh,
      env: { APP_ORIGIN: TEST_ORIGIN, SESSION_SECRET: undefined, ENCRYPTION_KEY: undefined },
    });
    dataSource = new DataSource({ type: 'postgres', url: embeddedUrl(fresh), extra: { max: 2 } });
    await dataSource.initialize();
    const again = await loginAs(client(second, dataSource), user);
    const preview = await again.get(`/api/assets/${datasetId}/data`).expect(200);
    expect(preview.body.rows).toEqual([
      { name: 'alpha', amount: 1 },
      { name: 'beta', amount: 2 },
    ]);
    await again.get(`/api/assets/${laterId}`).expect(404);
    const run = await again.post(`/api/connectors/run/${instanceId}`).set('Origin', TEST_ORIGIN).expect(200);
    expect(run.body).toMatchObject({ rowCount: 2 });
  });

  it('refuses to restore into the folder of a running app, naming it', async () => {
    const file = join(folder, 'marketplace.backup');
    await expect(runCli('restore', second!.dataDir, file)).rejects.toThrow(
      new RegExp(`in use by another instance of the app \\(pid ${second!.pid}`),
    );
  });
});
