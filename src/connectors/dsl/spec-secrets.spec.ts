import { HIDDEN_VALUE, hideUrlSecrets, specWithoutSecrets } from './spec-secrets';

describe('spec secrets', () => {
  it('hides every header value but the plain ones, keeping placeholders', () => {
    const spec = specWithoutSecrets({
      operations: [
        {
          id: 'items',
          url_path: '/items',
          headers: { Accept: 'application/json', 'X-Api-Key': 'k-123', Authorization: 'Bearer {{token}}' },
        },
      ],
    });
    expect((spec!.operations as Array<Record<string, unknown>>)[0].headers).toEqual({
      Accept: 'application/json',
      'X-Api-Key': HIDDEN_VALUE,
      Authorization: 'Bearer {{token}}',
    });
  });

  it('hides credential-named query and body values at any depth, and a literal auth format', () => {
    const spec = specWithoutSecrets({
      auth: { type: 'header', name: 'X-Token', format: 'static-token' },
      operations: [
        {
          id: 'items',
          url_path: '/items?apikey=abc&page=1',
          query: { units: 'metric', access_token: 'tok', limit: 5 },
          body: { grant: { client_secret: 's3', scope: 'read' }, list: [{ password: 'p' }] },
        },
      ],
    });
    const operation = (spec!.operations as Array<Record<string, unknown>>)[0];
    expect(spec!.auth).toEqual({ type: 'header', name: 'X-Token', format: HIDDEN_VALUE });
    expect(operation.url_path).toBe(`/items?apikey=${HIDDEN_VALUE}&page=1`);
    expect(operation.query).toEqual({ units: 'metric', access_token: HIDDEN_VALUE, limit: 5 });
    expect(operation.body).toEqual({
      grant: { client_secret: HIDDEN_VALUE, scope: 'read' },
      list: [{ password: HIDDEN_VALUE }],
    });
  });

  it('hides user info and credential-named query values of a URL template', () => {
    expect(hideUrlSecrets('https://me:pw@api.example.com/x?key={{api_key}}&token=abc&q={{city}}')).toBe(
      `https://${HIDDEN_VALUE}@api.example.com/x?key={{api_key}}&token=${HIDDEN_VALUE}&q={{city}}`,
    );
  });

  it('leaves a spec without secrets as it was', () => {
    const plain = { base_url: 'https://api.example.com', operations: [{ id: 'a', url_path: '/a' }] };
    expect(specWithoutSecrets(plain)).toEqual(plain);
    expect(specWithoutSecrets(null)).toBeNull();
  });
});
