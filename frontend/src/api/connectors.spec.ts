import { connectorKeys, connectorsApi } from './connectors';

describe('connectorsApi', () => {
  const calls: Array<{ url: string; method: string; body: unknown }> = [];
  const realFetch = global.fetch;

  beforeEach(() => {
    calls.splice(0);
    global.fetch = (async (url: string, init: RequestInit) => {
      calls.push({
        url,
        method: init.method ?? 'GET',
        body: init.body ? JSON.parse(String(init.body)) : undefined,
      });
      return new Response(JSON.stringify({ ok: true }), { status: 200 });
    }) as typeof fetch;
  });
  afterAll(() => {
    global.fetch = realFetch;
  });

  it('calls the spec §7 paths with the right methods and bodies', async () => {
    await connectorsApi.list();
    await connectorsApi.get('c1');
    await connectorsApi.mine();
    await connectorsApi.activate({ connector_id: 'c1', settings: { a: 1 }, auth_data: { k: 'v' } });
    await connectorsApi.update('i1', { refresh_interval: 5, headers: { X: 'y' } });
    await connectorsApi.run('i1', { settings: { override: true } });
    await connectorsApi.refresh('i1');
    await connectorsApi.remove('i1');
    await connectorsApi.runs('i1');
    await connectorsApi.upload({ title: 't', spec: '{}' });
    expect(calls.map((call) => `${call.method} ${call.url}`)).toEqual([
      'GET /api/connectors',
      'GET /api/connectors/c1',
      'GET /api/connectors/my',
      'POST /api/connectors/activate',
      'PATCH /api/connectors/instance/i1',
      'POST /api/connectors/instance/i1/run',
      'POST /api/connectors/run/i1',
      'POST /api/connectors/remove/i1',
      'GET /api/connectors/instance/i1/runs',
      'POST /api/connectors/upload',
    ]);
    expect(calls[3].body).toEqual({ connector_id: 'c1', settings: { a: 1 }, auth_data: { k: 'v' } });
    expect(calls[5].body).toEqual({ settings: { override: true } });
  });

  it('sends depends_on values of an options look-up as JSON', async () => {
    await connectorsApi.options('c1', 'country', { region: 'eu' }, 'i1');
    const url = new URL(calls[0].url, 'http://localhost');
    expect(url.pathname).toBe('/api/connectors/options');
    expect(Object.fromEntries(url.searchParams)).toEqual({
      connector_id: 'c1',
      field: 'country',
      values: '{"region":"eu"}',
      instance_id: 'i1',
    });
  });

  it('keys every connector query under one root so writes can refresh them all', () => {
    expect(connectorKeys.runs('i1').slice(0, 1)).toEqual(connectorKeys.all);
    expect(connectorKeys.detail('c1')).toEqual(['connectors', 'detail', 'c1']);
  });
});
