import type { Test } from 'supertest';
import type TestAgent from 'supertest/lib/agent';
import { createConnector } from '../factories/connector.factory';
import { createLoggedInUser, TestUser } from '../factories/user.factory';
import { FakeUpstream, sendJson, startFakeUpstream } from '../connectors/support/fake-upstream';
import { createTestApp, TEST_ORIGIN, TestApp } from '../support/test-app';
import { unreachableHostMessage } from '../../src/connectors/engine/safe-http-client';
import { createTestAppExempting } from './support/ssrf-app';

type Agent = TestAgent<Test>;
const refusedText = unreachableHostMessage;

/** A loopback server that records every request and redirects /redirect?to=… there. */
async function recordingUpstream(): Promise<FakeUpstream> {
  return startFakeUpstream((request, response) => {
    if (request.url.pathname === '/redirect') {
      response.writeHead(302, { location: request.url.searchParams.get('to') ?? '/' });
      return response.end();
    }
    return sendJson(response, [{ secret: 'internal data' }]);
  });
}

async function dataRows(testApp: TestApp, instanceId: string): Promise<number> {
  const [instance] = await testApp.dataSource.query(
    `SELECT output_table_name FROM connector_instances WHERE id = $1`,
    [instanceId],
  );
  const [row] = await testApp.dataSource.query(
    `SELECT count(*)::int AS count FROM data."${instance.output_table_name}"`,
  );
  return row.count;
}

/**
 * Connector runs and option look-ups through the real API with CONNECTOR_ALLOW_PRIVATE_NETWORKS
 * off: no URL form of a loopback, private, link-local or metadata address is reached, directly,
 * through a DNS name, or through a redirect.
 */
describe('abuse: connector SSRF through the API (private networks refused)', () => {
  let testApp: TestApp;
  let upstream: FakeUpstream;
  let owner: { user: TestUser; agent: Agent };
  let port: string;

  beforeAll(async () => {
    upstream = await recordingUpstream();
    port = new URL(upstream.origin).port;
    testApp = await createTestApp({ CONNECTOR_ALLOW_PRIVATE_NETWORKS: 'false' });
    owner = await createLoggedInUser(testApp);
  });
  afterAll(async () => {
    await testApp.close();
    await upstream.close();
  });
  beforeEach(() => upstream.requests.splice(0));

  async function instanceFor(fetchUrlTemplate: string, settings: Record<string, unknown> = {}) {
    const connector = await createConnector(testApp.dataSource, {
      fetchUrlTemplate,
      fields: Object.keys(settings).map((key) => ({ key, label: key, type: 'text' as const })),
    });
    const response = await owner.agent
      .post('/api/connectors/activate')
      .set('Origin', TEST_ORIGIN)
      .send({ connector_id: connector.id, settings })
      .expect(201);
    return response.body.id as string;
  }

  async function expectRefusedRun(instanceId: string, refusedHost: string) {
    const response = await owner.agent.post(`/api/connectors/run/${instanceId}`).set('Origin', TEST_ORIGIN);
    expect({ status: response.status, error: response.body.error }).toEqual({
      status: 502,
      error: `Run failed: ${refusedText(refusedHost)}`,
    });
    const runs = await owner.agent.get(`/api/connectors/instance/${instanceId}/runs`).expect(200);
    expect(runs.body[0]).toMatchObject({ status: 'failed', row_count: 0, error: refusedText(refusedHost) });
    expect(await dataRows(testApp, instanceId)).toBe(0);
    expect(upstream.requests).toHaveLength(0);
  }

  it.each([
    ['loopback IPv4', () => `http://127.0.0.1:${port}/data`, () => `127.0.0.1:${port}`],
    ['another loopback address', () => `http://127.1.2.3:${port}/data`, () => `127.1.2.3:${port}`],
    ['the unspecified address 0.0.0.0', () => `http://0.0.0.0:${port}/data`, () => `0.0.0.0:${port}`],
    ['a 10.x private address', () => 'http://10.0.0.5/data', () => '10.0.0.5'],
    ['a 172.16.x private address', () => 'http://172.16.0.1/data', () => '172.16.0.1'],
    ['a 192.168.x private address', () => 'http://192.168.1.1/data', () => '192.168.1.1'],
    ['a carrier-grade NAT address', () => 'http://100.64.0.1/data', () => '100.64.0.1'],
    ['the cloud metadata address', () => 'http://169.254.169.254/latest/meta-data/', () => '169.254.169.254'],
    [
      'the metadata address over https',
      () => 'https://169.254.169.254/latest/meta-data/',
      () => '169.254.169.254',
    ],
    ['IPv6 loopback ::1', () => `http://[::1]:${port}/data`, () => `[::1]:${port}`],
    ['IPv6 unspecified ::', () => `http://[::]:${port}/data`, () => `[::]:${port}`],
    [
      'IPv4-mapped ::ffff:127.0.0.1',
      () => `http://[::ffff:127.0.0.1]:${port}/data`,
      () => `[::ffff:7f00:1]:${port}`,
    ],
    [
      'IPv4-mapped in hex ::ffff:7f00:1',
      () => `http://[::ffff:7f00:1]:${port}/data`,
      () => `[::ffff:7f00:1]:${port}`,
    ],
    [
      'IPv4-mapped metadata ::ffff:169.254.169.254',
      () => 'http://[::ffff:169.254.169.254]/',
      () => '[::ffff:a9fe:a9fe]',
    ],
    [
      'NAT64 of loopback 64:ff9b::127.0.0.1',
      () => `http://[64:ff9b::127.0.0.1]:${port}/`,
      () => `[64:ff9b::7f00:1]:${port}`,
    ],
    [
      '6to4 of loopback 2002:7f00:1::',
      () => `http://[2002:7f00:1::]:${port}/`,
      () => `[2002:7f00:1::]:${port}`,
    ],
    ['unique-local fc00::/7 (fc00::1)', () => 'http://[fc00::1]/data', () => '[fc00::1]'],
    ['unique-local fc00::/7 (fd12:3456::1)', () => 'http://[fd12:3456::1]/data', () => '[fd12:3456::1]'],
    ['link-local fe80::1', () => 'http://[fe80::1]/data', () => '[fe80::1]'],
    ['decimal loopback 2130706433', () => `http://2130706433:${port}/data`, () => `127.0.0.1:${port}`],
    ['octal loopback 0177.0.0.1', () => `http://0177.0.0.1:${port}/data`, () => `127.0.0.1:${port}`],
    ['hex loopback 0x7f000001', () => `http://0x7f000001:${port}/data`, () => `127.0.0.1:${port}`],
    ['dotted hex loopback 0x7f.0.0.1', () => `http://0x7f.0.0.1:${port}/data`, () => `127.0.0.1:${port}`],
    ['short loopback 127.1', () => `http://127.1:${port}/data`, () => `127.0.0.1:${port}`],
    ['decimal metadata 2852039166', () => 'http://2852039166/latest/meta-data/', () => '169.254.169.254'],
    ['a trailing-dot loopback 127.0.0.1.', () => `http://127.0.0.1.:${port}/data`, () => `127.0.0.1:${port}`],
    [
      'user info hiding the host',
      () => `http://api.example.com@127.0.0.1:${port}/data`,
      () => `127.0.0.1:${port}`,
    ],
    ['the DNS name localhost', () => `http://localhost:${port}/data`, () => 'localhost'],
    ['the DNS name LOCALHOST in capitals', () => `http://LOCALHOST:${port}/data`, () => 'localhost'],
  ])('refuses %s', async (_name, url, refusedHost) => {
    await expectRefusedRun(await instanceFor(url()), refusedHost());
  });

  it('refuses a private host that arrives through a setting placed into the URL', async () => {
    const instanceId = await instanceFor(`http://{{host}}:${port}/data`, { host: '127.0.0.1' });
    await expectRefusedRun(instanceId, `127.0.0.1:${port}`);
  });

  it('refuses a background run (Run Now) the same way', async () => {
    const instanceId = await instanceFor(`http://[::1]:${port}/data`);
    await owner.agent
      .post(`/api/connectors/instance/${instanceId}/run`)
      .set('Origin', TEST_ORIGIN)
      .send({ override: true })
      .expect(202);
    let runs: Array<{ status: string; error: string | null }> = [];
    for (let attempt = 0; attempt < 200 && (runs.length === 0 || runs[0].status === 'running'); attempt++) {
      await new Promise((resolve) => setTimeout(resolve, 25));
      runs = (await owner.agent.get(`/api/connectors/instance/${instanceId}/runs`).expect(200)).body;
    }
    expect(runs[0]).toMatchObject({ status: 'failed', error: refusedText(`[::1]:${port}`) });
    expect(upstream.requests).toHaveLength(0);
  });

  it('refuses an options_endpoint on a private address with 400', async () => {
    const connector = await createConnector(testApp.dataSource, {
      fetchUrlTemplate: 'https://api.example.com/items',
      fields: [
        {
          key: 'region',
          label: 'Region',
          type: 'select',
          options_endpoint: `http://127.0.0.1:${port}/regions`,
        },
        {
          key: 'zone',
          label: 'Zone',
          type: 'select',
          options_endpoint: 'http://169.254.169.254/latest/meta-data/',
        },
      ],
    });
    for (const [field, host] of [
      ['region', `127.0.0.1:${port}`],
      ['zone', '169.254.169.254'],
    ]) {
      const response = await owner.agent
        .get('/api/connectors/options')
        .query({ connector_id: connector.id, field });
      expect({ status: response.status, error: response.body.error }).toEqual({
        status: 400,
        error: `Could not load options: ${refusedText(host)}`,
      });
    }
    expect(upstream.requests).toHaveLength(0);
  });
});

describe('abuse: connector SSRF through redirects', () => {
  let testApp: TestApp;
  let upstream: FakeUpstream;
  let owner: { user: TestUser; agent: Agent };
  let port: string;

  beforeAll(async () => {
    upstream = await recordingUpstream();
    port = new URL(upstream.origin).port;
    // The fake outside API lives on 127.0.0.1, so that one host is exempt; everything else stays refused.
    testApp = await createTestAppExempting('127.0.0.1');
    owner = await createLoggedInUser(testApp);
  });
  afterAll(async () => {
    await testApp.close();
    await upstream.close();
  });
  beforeEach(() => upstream.requests.splice(0));

  async function runThroughRedirect(target: string) {
    const connector = await createConnector(testApp.dataSource, {
      fetchUrlTemplate: `http://127.0.0.1:${port}/redirect?to=${encodeURIComponent(target)}`,
    });
    const activated = await owner.agent
      .post('/api/connectors/activate')
      .set('Origin', TEST_ORIGIN)
      .send({ connector_id: connector.id })
      .expect(201);
    const response = await owner.agent
      .post(`/api/connectors/run/${activated.body.id}`)
      .set('Origin', TEST_ORIGIN);
    return { instanceId: activated.body.id as string, response };
  }

  it.each([
    ['localhost', () => `http://localhost:${port}/data`, () => 'localhost'],
    ['another loopback address', () => `http://127.0.0.2:${port}/data`, () => `127.0.0.2:${port}`],
    ['the cloud metadata address', () => 'http://169.254.169.254/latest/meta-data/', () => '169.254.169.254'],
    ['a private address', () => 'http://10.0.0.1/', () => '10.0.0.1'],
    ['IPv6 loopback', () => `http://[::1]:${port}/data`, () => `[::1]:${port}`],
    ['IPv4-mapped loopback', () => `http://[::ffff:127.0.0.1]:${port}/data`, () => `[::ffff:7f00:1]:${port}`],
    ['unique-local IPv6', () => 'http://[fd00::1]/', () => '[fd00::1]'],
    ['link-local IPv6', () => 'http://[fe80::1]/', () => '[fe80::1]'],
    ['decimal metadata', () => 'http://2852039166/', () => '169.254.169.254'],
  ])('refuses a redirect to %s and writes nothing', async (_name, target, refusedHost) => {
    const { instanceId, response } = await runThroughRedirect(target());
    expect({ status: response.status, error: response.body.error }).toEqual({
      status: 502,
      error: `Run failed: ${refusedText(refusedHost())}`,
    });
    expect(upstream.requests.map((request) => request.url.pathname)).toEqual(['/redirect']);
    expect(await dataRows(testApp, instanceId)).toBe(0);
  });

  it('follows a redirect that stays on the exempt host (the guard, not the redirect, refuses)', async () => {
    const { instanceId, response } = await runThroughRedirect('/data');
    expect(response.status).toBe(200);
    expect(response.body.rowCount).toBe(1);
    expect(upstream.requests.map((request) => request.url.pathname)).toEqual(['/redirect', '/data']);
    expect(await dataRows(testApp, instanceId)).toBe(1);
  });
});
