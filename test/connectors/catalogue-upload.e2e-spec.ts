import { createConnector, simpleSpec } from '../factories/connector.factory';
import { createLoggedInUser } from '../factories/user.factory';
import { createTestApp, TEST_ORIGIN, TestApp } from '../support/test-app';

const VALID_SPEC = {
  title: 'Weather',
  protocol: 'https',
  base_url: 'https://api.example.com',
  auth: {
    type: 'api_key',
    in: 'query',
    name: 'appid',
    fields: [{ key: 'api_key', label: 'API key', required: true }],
  },
  operations: [
    {
      id: 'forecast',
      name: 'Forecast',
      method: 'GET',
      url_path: '/forecast/{{city}}',
      query: { units: '{{units}}', lang: 'en' },
      pagination: { type: 'page', page_param: 'page', page_size: 50, size_param: 'per_page' },
      response_path: 'data.items',
      params_fields: [
        { key: 'units', label: 'Units', type: 'select', options: ['metric', 'imperial'], default: 'metric' },
      ],
    },
    { id: 'cities', url_path: '/cities', response_path: 'cities' },
  ],
  fields: [
    { key: 'city', label: 'City', type: 'select', options_endpoint: 'cities', required: true },
    { key: 'notes', label: 'Notes', type: 'text', include: false },
  ],
};

describe('connectors: catalogue and DSL upload', () => {
  let testApp: TestApp;

  beforeAll(async () => {
    testApp = await createTestApp();
  });
  afterAll(async () => {
    await testApp.close();
  });

  it('lists every connector to visitors, with category API by default', async () => {
    const connector = await createConnector(testApp.dataSource, { title: 'Visitor visible connector' });
    const response = await testApp.http.get('/api/connectors').expect(200);
    const listed = response.body.find((item: { id: string }) => item.id === connector.id);
    expect(listed).toMatchObject({
      title: 'Visitor visible connector',
      category: 'API',
      type: 'connector',
      has_instance: false,
      price: 0,
    });
  });

  it('tells a logged-in caller whether they have an instance', async () => {
    const { agent } = await createLoggedInUser(testApp);
    const connector = await createConnector(testApp.dataSource, {
      fetchUrlTemplate: 'https://example.com/x',
    });
    const activated = await agent
      .post('/api/connectors/activate')
      .set('Origin', TEST_ORIGIN)
      .send({ connector_id: connector.id })
      .expect(201);
    const list = await agent.get('/api/connectors').expect(200);
    expect(list.body.find((item: { id: string }) => item.id === connector.id)).toMatchObject({
      has_instance: true,
      instance_id: activated.body.id,
      subscriber_count: 1,
    });
    const detail = await agent.get(`/api/connectors/${connector.id}`).expect(200);
    expect(detail.body).toMatchObject({
      id: connector.id,
      has_instance: true,
      instance_id: activated.body.id,
    });
  });

  it('answers 404 for an unknown or malformed connector id', async () => {
    await testApp.http.get('/api/connectors/6f1c1a38-7d53-4a0e-9b5e-000000000000').expect(404);
    const malformed = await testApp.http.get('/api/connectors/not-a-uuid').expect(404);
    expect(malformed.body.error).toBe('Connector not found');
  });

  it('returns auth_fields as an array also when stored as a JSON string', async () => {
    const connector = await createConnector(testApp.dataSource, {
      authFields: JSON.stringify([{ label: 'Token', key: 'token', required: true }]),
    });
    const detail = await testApp.http.get(`/api/connectors/${connector.id}`).expect(200);
    expect(detail.body.auth_fields).toEqual([{ label: 'Token', key: 'token', required: true }]);
  });

  it('requires login to upload', async () => {
    await testApp.http
      .post('/api/connectors/upload')
      .set('Origin', TEST_ORIGIN)
      .send({ title: 'x', spec: VALID_SPEC })
      .expect(401);
  });

  it('stores a valid spec as a connector built from it and answers its profile URL', async () => {
    const { agent, user } = await createLoggedInUser(testApp);
    const response = await agent
      .post('/api/connectors/upload')
      .set('Origin', TEST_ORIGIN)
      .send({
        title: 'My weather',
        description: 'Forecasts',
        is_public: false,
        price: 4.5,
        spec: JSON.stringify(VALID_SPEC),
      })
      .expect(201);
    expect(response.body).toEqual({
      id: expect.any(String),
      redirectUrl: `/connector_profile/${response.body.id}`,
    });
    const detail = await agent.get(`/api/connectors/${response.body.id}`).expect(200);
    expect(detail.body).toMatchObject({
      title: 'My weather',
      description: 'Forecasts',
      is_public: false,
      price: 4.5,
      category: 'API',
      owner_user_id: user.id,
      owned: true,
      fetch_url_template: 'https://api.example.com/forecast/{{city}}?units={{units}}&lang=en',
      auth_fields: [{ label: 'API key', key: 'api_key', required: true }],
      specification_schema: {
        fields: [{ key: 'api_key', label: 'API key', type: 'text', private: true, required: true }],
      },
    });
    expect(detail.body.schema.fields.map((field: { key: string }) => field.key)).toEqual([
      'city',
      'notes',
      'units',
    ]);
    expect(detail.body.spec.operations[0].pagination).toEqual(VALID_SPEC.operations[0].pagination);
  });

  it('refuses a spec that is not JSON', async () => {
    const { agent } = await createLoggedInUser(testApp);
    const response = await agent
      .post('/api/connectors/upload')
      .set('Origin', TEST_ORIGIN)
      .send({ title: 'x', spec: '{nope' })
      .expect(400);
    expect(response.body.error).toBe('Invalid JSON in connector spec.');
  });

  it("takes the spec's title and description when the form leaves them empty; the uploader is the author", async () => {
    const { agent, user } = await createLoggedInUser(testApp);
    const spec = { ...VALID_SPEC, description: 'Forecasts from the spec.' };
    const response = await agent
      .post('/api/connectors/upload')
      .set('Origin', TEST_ORIGIN)
      .send({ title: '   ', description: '', spec })
      .expect(201);
    const detail = await agent.get(`/api/connectors/${response.body.id}`).expect(200);
    expect(detail.body).toMatchObject({
      title: 'Weather',
      description: 'Forecasts from the spec.',
      author: user.name,
      source: 'https://api.example.com',
    });
  });

  it('requires a title in the form or in the spec', async () => {
    const { agent } = await createLoggedInUser(testApp);
    const { title: _title, ...untitled } = VALID_SPEC;
    for (const title of ['', '   ', undefined]) {
      const response = await agent
        .post('/api/connectors/upload')
        .set('Origin', TEST_ORIGIN)
        .send({ title, spec: untitled })
        .expect(400);
      expect(response.body.errors).toContain('Title is required');
    }
  });

  it.each([
    ['a price of true', { price: true }, 'Price must be a non-negative amount with at most two decimals.'],
    ['a negative price', { price: -1 }, 'Price must be a non-negative amount with at most two decimals.'],
    [
      'a price with three decimals',
      { price: '1.005' },
      'Price must be a non-negative amount with at most two decimals.',
    ],
    ['a price beyond the cap', { price: 2_000_000 }, 'Price must be at most 1,000,000.'],
    [
      'a javascript: image',
      { image: 'javascript:alert(1)' },
      'Image must be an http(s) URL or a path on this site starting with /',
    ],
    ['an is_public that is no yes or no', { is_public: 'maybe' }, 'is_public must be true or false'],
  ])('refuses %s with 400 and stores nothing, like a dataset upload', async (_name, fields, message) => {
    const { agent, user } = await createLoggedInUser(testApp);
    const response = await agent
      .post('/api/connectors/upload')
      .set('Origin', TEST_ORIGIN)
      .send({ title: 'Checked', spec: VALID_SPEC, ...fields })
      .expect(400);
    expect(response.body.errors).toContain(message);
    const [row] = await testApp.dataSource.query(
      'SELECT count(*)::int AS n FROM connectors WHERE owner_id = $1',
      [user.id],
    );
    expect(row.n).toBe(0);
  });

  it('stores a trimmed title, a price given as text and a site-relative image', async () => {
    const { agent } = await createLoggedInUser(testApp);
    const response = await agent
      .post('/api/connectors/upload')
      .set('Origin', TEST_ORIGIN)
      .send({ title: '  Spaced  ', price: ' 2.50 ', image: '/images/weather.png', spec: VALID_SPEC })
      .expect(201);
    const detail = await agent.get(`/api/connectors/${response.body.id}`).expect(200);
    expect(detail.body).toMatchObject({ title: 'Spaced', price: 2.5, image: '/images/weather.png' });
  });

  it('answers 400 with every DSL problem and its path', async () => {
    const { agent } = await createLoggedInUser(testApp);
    const spec = {
      base_url: 'https://api.example.com',
      auth: { type: 'magic' },
      operations: [
        { id: 'a', method: 'DELETE', url_path: '/x', pagination: { type: 'cursor' }, surprise: 1 },
        { name: 'no id or path' },
      ],
      fields: [
        { key: 'city', type: 'select' },
        { key: 'g', type: 'group' },
        { label: 'no key', type: 'text' },
      ],
    };
    const response = await agent
      .post('/api/connectors/upload')
      .set('Origin', TEST_ORIGIN)
      .send({ title: 'Bad', spec })
      .expect(400);
    expect(response.body.statusCode).toBe(400);
    expect(response.body.errors).toEqual(
      expect.arrayContaining([
        'spec/auth/type: must be one of: none, bearer, api_key, basic, header, oauth2, session',
        'spec/operations/0/method: must be one of: GET, POST',
        "spec/operations/0/pagination: missing required property 'cursor_path'",
        "spec/operations/0/surprise: unknown property 'surprise'",
        "spec/operations/1: missing required property 'id'",
        "spec/operations/1: missing required property 'url_path'",
        "spec/fields/0: missing required property 'options'",
        "spec/fields/1: missing required property 'fields'",
        "spec/fields/2: missing required property 'key'",
      ]),
    );
    expect(response.body.error).toContain('spec/operations/0/method');
  });

  it('reports placeholders and references that match no field', async () => {
    const { agent } = await createLoggedInUser(testApp);
    const spec = {
      base_url: 'https://api.example.com',
      operations: [
        { id: 'a', url_path: '/x/{{missing}}', headers: { 'X-K': '{{nope}}' } },
        { id: 'a', url_path: '/y' },
      ],
      fields: [{ key: 'c', type: 'select', options_endpoint: 'unknown_op', depends_on: ['ghost'] }],
    };
    const response = await agent
      .post('/api/connectors/upload')
      .set('Origin', TEST_ORIGIN)
      .send({ title: 'Bad refs', spec })
      .expect(400);
    expect(response.body.errors).toEqual(
      expect.arrayContaining([
        'spec/operations/0/url_path: placeholder {{missing}} does not match any field or auth field',
        'spec/operations/0/headers/X-K: placeholder {{nope}} does not match any field or auth field',
        "spec/operations/1/id: duplicate operation id 'a'",
        "spec/fields/0/depends_on/0: 'ghost' is not a field key",
        "spec/fields/0/options_endpoint: 'unknown_op' is neither an operation id, a path starting with / nor an http(s) URL",
      ]),
    );
  });

  it.each([
    [
      'WebSocket',
      { ...simpleSpec('https://api.example.com'), protocol: 'websocket' },
      'spec/protocol: WebSocket connectors are not supported',
    ],
    [
      'WebSocket URL',
      { ...simpleSpec('wss://api.example.com') },
      'spec/base_url: WebSocket connectors are not supported',
    ],
    [
      'GraphQL',
      { ...simpleSpec('https://api.example.com'), protocol: 'graphql' },
      'spec/protocol: GraphQL connectors are not supported',
    ],
    [
      'nested transforms',
      simpleSpec('https://api.example.com', { transforms: [{ map: 'x' }] } as never),
      'spec/operations/0/transforms: Nested transforms are not supported',
    ],
    [
      'the OAuth2 authorization-code flow',
      {
        ...simpleSpec('https://api.example.com'),
        auth: {
          type: 'oauth2',
          authorization_url: 'https://auth.example.com/authorize',
          fields: [{ key: 'client_id' }],
        },
      },
      'spec/auth/authorization_url: The OAuth2 authorization-code flow is not supported: use auth type oauth2 with grant_type client_credentials or refresh_token, or a supplied access token',
    ],
  ])('refuses %s by name', async (_name, spec, message) => {
    const { agent } = await createLoggedInUser(testApp);
    const response = await agent
      .post('/api/connectors/upload')
      .set('Origin', TEST_ORIGIN)
      .send({ title: 'Unsupported', spec })
      .expect(400);
    expect(response.body.errors).toEqual([message]);
  });
});
