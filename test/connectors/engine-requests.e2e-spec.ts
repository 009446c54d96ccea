import { ConnectorEngine } from '../../src/connectors/engine/connector-engine';
import { FakeUpstream, sendJson, startFakeUpstream } from './support/fake-upstream';
import { collect, plan, records, testEngine } from './support/engine';

describe('connector engine: building requests', () => {
  let upstream: FakeUpstream;
  let engine: ConnectorEngine;

  beforeAll(async () => {
    upstream = await startFakeUpstream((request, response) => {
      if (request.url.pathname === '/nested')
        return sendJson(response, { data: { items: [{ id: 1 }, { id: 2 }] } });
      if (request.url.pathname === '/indexed')
        return sendJson(response, { results: [{ rows: [{ id: 'a' }] }] });
      if (request.url.pathname === '/single')
        return sendJson(response, { temperature: 21.5, city: 'Berlin' });
      if (request.url.pathname === '/scalars') return sendJson(response, ['x', 'y']);
      return sendJson(response, [{ echoed: request.url.pathname }]);
    });
    engine = testEngine();
  });
  afterAll(async () => {
    engine.destroy();
    await upstream.close();
  });
  beforeEach(() => upstream.requests.splice(0));

  it('fills {{key}} and dotted {{group.key}} placeholders URL-encoded and sends unused declared settings as query parameters, never undeclared ones', async () => {
    await records(
      engine,
      plan({
        urlTemplate: `${upstream.origin}/cities/{{city}}/{{range.from}}?units={{units}}`,
        declaredParams: ['city', 'range.from', 'range.to', 'units', 'limit'],
        settings: {
          note: 'my private note',
          city: 'New York/NY',
          range: { from: '2024-01-01', to: '2024-02-01' },
          units: 'metric',
          limit: 5,
          override: true,
        },
      }),
    );
    const [request] = upstream.requests;
    expect(request.url.pathname).toBe('/cities/New%20York%2FNY/2024-01-01');
    expect(request.url.searchParams.get('units')).toBe('metric');
    expect(request.url.searchParams.get('limit')).toBe('5');
    expect(request.url.searchParams.get('range.to')).toBe('2024-02-01');
    expect(request.url.searchParams.has('range.from')).toBe(false);
    expect(request.url.searchParams.has('override')).toBe(false);
    expect(request.url.searchParams.has('note')).toBe(false);
  });

  it('sends custom headers with placeholders filled', async () => {
    await records(
      engine,
      plan({
        urlTemplate: `${upstream.origin}/h`,
        headers: { 'X-Tenant': '{{tenant}}', 'X-Static': 'yes' },
        settings: { tenant: 'acme' },
      }),
    );
    expect(upstream.requests[0].headers['x-tenant']).toBe('acme');
    expect(upstream.requests[0].headers['x-static']).toBe('yes');
  });

  it('sends a POST with the JSON body template filled raw', async () => {
    await records(
      engine,
      plan({
        urlTemplate: `${upstream.origin}/search`,
        method: 'POST',
        bodyTemplate: '{"query": "{{q}}", "size": {{size}}, "filters": {"from": "{{range.from}}"}}',
        settings: { q: 'say "hi"', size: 25, range: { from: '2024-01-01' } },
      }),
    );
    const [request] = upstream.requests;
    expect(request.method).toBe('POST');
    expect(request.headers['content-type']).toBe('application/json');
    expect(JSON.parse(request.body)).toEqual({
      query: 'say "hi"',
      size: 25,
      filters: { from: '2024-01-01' },
    });
    expect(request.url.searchParams.has('q')).toBe(false);
  });

  it('fails clearly when the filled body template is not JSON', async () => {
    await expect(
      records(
        engine,
        plan({
          urlTemplate: `${upstream.origin}/x`,
          method: 'POST',
          bodyTemplate: '{"a": {{a}',
          settings: { a: 1 },
        }),
      ),
    ).rejects.toThrow('The POST body template is not valid JSON once the settings are filled in');
  });

  describe('auth types', () => {
    const authCases: Array<
      [
        string,
        Parameters<typeof plan>[0]['auth'],
        Record<string, string>,
        (request: (typeof upstream.requests)[0]) => void,
      ]
    > = [
      [
        'bearer puts the token in the Authorization header',
        { type: 'bearer', fields: [{ key: 'token' }] },
        { token: 'tok-1' },
        (r) => expect(r.headers.authorization).toBe('Bearer tok-1'),
      ],
      [
        'api_key in a header uses the named header and format',
        { type: 'api_key', in: 'header', name: 'X-Api-Key', format: 'Key {{key}}', fields: [{ key: 'key' }] },
        { key: 'k-2' },
        (r) => expect(r.headers['x-api-key']).toBe('Key k-2'),
      ],
      [
        'api_key in the query uses the named parameter',
        { type: 'api_key', in: 'query', name: 'appid', fields: [{ key: 'key' }] },
        { key: 'k-3' },
        (r) => expect(r.url.searchParams.get('appid')).toBe('k-3'),
      ],
      [
        'basic sends base64 user:password',
        { type: 'basic', fields: [{ key: 'user' }, { key: 'pass' }] },
        { user: 'ann', pass: 's3cret' },
        (r) => expect(r.headers.authorization).toBe(`Basic ${Buffer.from('ann:s3cret').toString('base64')}`),
      ],
      [
        'header sends any named header',
        { type: 'header', name: 'X-Custom-Auth', fields: [{ key: 'secret' }] },
        { secret: 'abc' },
        (r) => expect(r.headers['x-custom-auth']).toBe('abc'),
      ],
      [
        'oauth2 uses the supplied access token as a bearer token',
        { type: 'oauth2', fields: [{ key: 'access_token' }] },
        { access_token: 'at-9' },
        (r) => expect(r.headers.authorization).toBe('Bearer at-9'),
      ],
    ];
    it.each(authCases)('%s', async (_name, auth, authData, check) => {
      await records(engine, plan({ urlTemplate: `${upstream.origin}/auth`, auth, authData }));
      check(upstream.requests[0]);
    });

    it('makes auth data available to URL placeholders without sending it as a query parameter otherwise', async () => {
      await records(
        engine,
        plan({ urlTemplate: `${upstream.origin}/k/{{api_key}}`, authData: { api_key: 'zzz' } }),
      );
      expect(upstream.requests[0].url.pathname).toBe('/k/zzz');
      expect(upstream.requests[0].url.search).toBe('');
    });
  });

  describe('response_path', () => {
    it('takes the records at a dotted path', async () => {
      expect(
        await records(engine, plan({ urlTemplate: `${upstream.origin}/nested`, responsePath: 'data.items' })),
      ).toEqual([{ id: 1 }, { id: 2 }]);
    });

    it('follows array indices in both [0] and .0 forms', async () => {
      expect(
        await records(
          engine,
          plan({ urlTemplate: `${upstream.origin}/indexed`, responsePath: 'results[0].rows' }),
        ),
      ).toEqual([{ id: 'a' }]);
      expect(
        await records(
          engine,
          plan({ urlTemplate: `${upstream.origin}/indexed`, responsePath: 'results.0.rows' }),
        ),
      ).toEqual([{ id: 'a' }]);
    });

    it('counts a single object as one record', async () => {
      expect(await records(engine, plan({ urlTemplate: `${upstream.origin}/single` }))).toEqual([
        { temperature: 21.5, city: 'Berlin' },
      ]);
    });

    it('turns scalar items into value rows', async () => {
      expect(await records(engine, plan({ urlTemplate: `${upstream.origin}/scalars` }))).toEqual([
        { value: 'x' },
        { value: 'y' },
      ]);
    });

    it('fails with the path named when it is not in the response', async () => {
      await expect(
        records(engine, plan({ urlTemplate: `${upstream.origin}/nested`, responsePath: 'data.missing' })),
      ).rejects.toThrow("response_path 'data.missing' was not found in the response");
    });
  });

  it('runs one request sequence per value of an iterated setting and tags each page with its value', async () => {
    const pages = await collect(
      engine,
      plan({
        urlTemplate: `${upstream.origin}/city/{{city}}`,
        settings: { city: ['Berlin', 'Paris'], days: 3 },
        declaredParams: ['city', 'days'],
        iterations: ['city'],
      }),
    );
    expect(upstream.requests.map((request) => request.url.pathname)).toEqual(['/city/Berlin', '/city/Paris']);
    expect(pages.map((page) => page.iteration)).toEqual([{ city: 'Berlin' }, { city: 'Paris' }]);
    expect(upstream.requests[0].url.searchParams.get('days')).toBe('3');
  });
});
