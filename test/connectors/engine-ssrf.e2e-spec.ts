import { ConnectorEngine } from '../../src/connectors/engine/connector-engine';
import { unreachableHostMessage } from '../../src/connectors/engine/safe-http-client';
import { FakeUpstream, sendJson, startFakeUpstream } from './support/fake-upstream';
import { plan, records, testEngine } from './support/engine';

const REFUSED =
  /Refused to connect to .*: the host does not resolve to an allowed public address \(private, loopback, link-local and metadata addresses are not allowed\)/;

describe('connector engine: private network protection (CONNECTOR_ALLOW_PRIVATE_NETWORKS off)', () => {
  let upstream: FakeUpstream;
  let upstreamV6: FakeUpstream | undefined;
  let guarded: ConnectorEngine;
  let port: string;

  beforeAll(async () => {
    upstream = await startFakeUpstream((request, response) => {
      if (request.url.pathname === '/redirect') {
        response.writeHead(302, { location: request.url.searchParams.get('to') ?? '/' });
        return response.end();
      }
      return sendJson(response, [{ secret: 'internal data' }]);
    });
    port = new URL(upstream.origin).port;
    upstreamV6 = await startFakeUpstream(
      (_request, response) => sendJson(response, [{ secret: 'v6' }]),
      '::1',
    ).catch(() => undefined);
    guarded = testEngine({ allowPrivateNetworks: false, retries: 0, timeoutMs: 1000 });
  });
  afterAll(async () => {
    guarded.destroy();
    await upstream.close();
    await upstreamV6?.close();
  });
  beforeEach(() => upstream.requests.splice(0));

  it.each([
    ['loopback IPv4', () => `http://127.0.0.1:${port}/data`],
    ['another loopback address', () => `http://127.1.2.3:${port}/data`],
    ['a 10.x private address', () => 'http://10.0.0.5/data'],
    ['a 192.168.x private address', () => 'http://192.168.1.1/data'],
    ['the cloud metadata address', () => 'http://169.254.169.254/latest/meta-data/'],
    ['IPv6 loopback ::1', () => `http://[::1]:${port}/data`],
    ['IPv4-mapped IPv6 ::ffff:127.0.0.1', () => `http://[::ffff:127.0.0.1]:${port}/data`],
    ['a decimal IPv4 form of loopback', () => `http://2130706433:${port}/data`],
    ['a DNS name resolving to loopback (localhost)', () => `http://localhost:${port}/data`],
  ])('refuses %s', async (_name, url) => {
    await expect(records(guarded, plan({ urlTemplate: url() }))).rejects.toThrow(REFUSED);
    expect(upstream.requests).toHaveLength(0);
  });

  it('answers a host that does not resolve exactly like one that resolves to a private address', async () => {
    const failure = (url: string) =>
      records(guarded, plan({ urlTemplate: url })).then(
        () => 'fetched',
        (error: Error) => error.message,
      );
    expect(await failure(`http://localhost:${port}/data`)).toBe(unreachableHostMessage('localhost'));
    expect(await failure(`http://no-such-host.invalid:${port}/data`)).toBe(
      unreachableHostMessage('no-such-host.invalid'),
    );
  });

  it('checks every redirect hop: an allowed first host cannot redirect into the private network', async () => {
    // 127.0.0.1 is exempted by name so the first hop goes through; each target is then refused.
    const exempting = testEngine({ allowPrivateNetworks: false, allowedHosts: ['127.0.0.1'], retries: 0 });
    try {
      for (const target of [
        `http://localhost:${port}/data`,
        'http://169.254.169.254/latest/meta-data/',
        'http://10.0.0.1/',
        `http://[::1]:${port}/data`,
        `http://[::ffff:127.0.0.1]:${port}/data`,
      ]) {
        upstream.requests.splice(0);
        const url = `http://127.0.0.1:${port}/redirect?to=${encodeURIComponent(target)}`;
        await expect(records(exempting, plan({ urlTemplate: url }))).rejects.toThrow(REFUSED);
        expect(upstream.requests.map((request) => request.url.pathname)).toEqual(['/redirect']);
      }
      // The same redirect to an exempt host is followed.
      const followed = await records(
        exempting,
        plan({ urlTemplate: `http://127.0.0.1:${port}/redirect?to=/data` }),
      );
      expect(followed).toEqual([{ secret: 'internal data' }]);
    } finally {
      exempting.destroy();
    }
  });

  it('reaches loopback when private networks are allowed (IPv6 too)', async () => {
    const allowing = testEngine({ allowPrivateNetworks: true });
    try {
      expect(await records(allowing, plan({ urlTemplate: `http://localhost:${port}/data` }))).toEqual([
        { secret: 'internal data' },
      ]);
      if (upstreamV6)
        expect(await records(allowing, plan({ urlTemplate: `${upstreamV6.origin}/x` }))).toEqual([
          { secret: 'v6' },
        ]);
    } finally {
      allowing.destroy();
    }
  });
});
