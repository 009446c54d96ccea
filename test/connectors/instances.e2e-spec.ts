import { SecretBox } from '../../src/common/crypto/secret-box';
import type { SchemaField } from '../../src/connectors/entities/connector.entity';
import { createConnector } from '../factories/connector.factory';
import { createLoggedInUser } from '../factories/user.factory';
import { createTestApp, TEST_ORIGIN, TestApp } from '../support/test-app';

const FIELDS: SchemaField[] = [
  { key: 'city', label: 'City', type: 'text', required: true },
  { key: 'mode', label: 'Mode', type: 'select', options: ['simple', 'advanced'], default: 'simple' },
  { key: 'depth', label: 'Depth', type: 'number', required: true, conditions: { mode: 'advanced' } },
  { key: 'api_token', label: 'API token', type: 'text', private: true, required: true },
  { key: 'ui_only', label: 'UI only', type: 'bool', include: false },
  {
    key: 'range',
    label: 'Range',
    type: 'group',
    fields: [
      { key: 'from', label: 'From', type: 'date', required: true },
      { key: 'to', label: 'To', type: 'date' },
    ],
  },
];

describe('connectors: instances', () => {
  let testApp: TestApp;
  let connectorId: string;

  beforeAll(async () => {
    testApp = await createTestApp();
    connectorId = (
      await createConnector(testApp.dataSource, {
        fetchUrlTemplate: 'https://example.com/{{city}}',
        fields: FIELDS,
        authFields: [{ label: 'Account id', key: 'account', required: true }],
      })
    ).id;
  });
  afterAll(async () => {
    await testApp.close();
  });

  const validBody = () => ({
    connector_id: connectorId,
    settings: { city: 'Berlin', api_token: 'tok-secret', ui_only: true, range: { from: '2024-01-01' } },
    auth_data: { account: 'acc-secret' },
  });

  function activate(agent: ReturnType<TestApp['agent']>, body: Record<string, unknown> = validBody()) {
    return agent.post('/api/connectors/activate').set('Origin', TEST_ORIGIN).send(body);
  }

  it('requires login to activate', async () => {
    await testApp.http
      .post('/api/connectors/activate')
      .set('Origin', TEST_ORIGIN)
      .send(validBody())
      .expect(401);
  });

  it('creates the instance and its empty table; private fields go to encrypted auth data, include:false is dropped, defaults fill in', async () => {
    const { agent } = await createLoggedInUser(testApp);
    const response = await activate(agent).expect(201);
    expect(response.body).toEqual({ id: expect.any(String) });

    const [mine] = (await agent.get('/api/connectors/my').expect(200)).body;
    expect(mine).toMatchObject({
      id: response.body.id,
      connector_id: connectorId,
      refresh_interval: 0,
      settings: { city: 'Berlin', mode: 'simple', range: { from: '2024-01-01' } },
      has_auth_data: true,
      last_run: null,
      method: 'GET',
    });
    expect(JSON.stringify(mine)).not.toMatch(/tok-secret|acc-secret|auth_data_encrypted/);
    expect(mine.output_table_name).toMatch(/^ci_[a-z0-9_]+_[0-9a-f]{10}$/);

    const [stored] = await testApp.dataSource.query(
      `SELECT auth_data_encrypted FROM connector_instances WHERE id = $1`,
      [response.body.id],
    );
    expect(stored.auth_data_encrypted).toMatch(/^v1\./);
    expect(stored.auth_data_encrypted).not.toContain('tok-secret');

    const columns = await testApp.dataSource.query(
      `SELECT column_name FROM information_schema.columns WHERE table_schema = 'data' AND table_name = $1 ORDER BY ordinal_position`,
      [mine.output_table_name],
    );
    expect(columns.map((column: { column_name: string }) => column.column_name)).toEqual([
      '_run_id',
      '_fetched_at',
    ]);
  });

  it('refuses activation when required settings or auth fields are missing, naming each', async () => {
    const { agent } = await createLoggedInUser(testApp);
    const response = await activate(agent, { connector_id: connectorId, settings: {} }).expect(400);
    expect(response.body.errors).toEqual([
      'City is required',
      'API token is required',
      'From is required',
      'Account id is required',
    ]);
  });

  it('requires a field shown by its condition only when the condition holds', async () => {
    const { agent } = await createLoggedInUser(testApp);
    const body = validBody();
    (body.settings as Record<string, unknown>).mode = 'advanced';
    const response = await activate(agent, body).expect(400);
    expect(response.body.errors).toEqual(['Depth is required']);
    (body.settings as Record<string, unknown>).depth = 3;
    await activate(agent, body).expect(201);
  });

  it('refuses text PostgreSQL cannot store with 400 and the field, on activate, save and run (not a 500)', async () => {
    const { agent } = await createLoggedInUser(testApp);
    // Sent as raw JSON: the escape is what a browser's JSON.stringify sends for a lone surrogate.
    const raw = (body: unknown) => JSON.stringify(body).replace('Berlin', 'Berlin\\ud800');
    const refused = await agent
      .post('/api/connectors/activate')
      .set('Origin', TEST_ORIGIN)
      .set('Content-Type', 'application/json')
      .send(raw(validBody()))
      .expect(400);
    expect(refused.body.error).toBe(
      'settings.city must be valid Unicode text (it holds half of a character pair)',
    );
    const { id } = (await activate(agent).expect(201)).body;
    const save = await agent
      .patch(`/api/connectors/instance/${id}`)
      .set('Origin', TEST_ORIGIN)
      .set('Content-Type', 'application/json')
      .send(raw({ settings: validBody().settings }))
      .expect(400);
    expect(save.body.error).toMatch(/^settings\.city must be valid Unicode text/);
    const run = await agent
      .post(`/api/connectors/instance/${id}/run`)
      .set('Origin', TEST_ORIGIN)
      .set('Content-Type', 'application/json')
      .send(raw({ settings: validBody().settings }))
      .expect(400);
    expect(run.body.error).toMatch(/^settings\.city must be valid Unicode text/);
  });

  it('answers 404 for an unknown connector', async () => {
    const { agent } = await createLoggedInUser(testApp);
    await activate(agent, { ...validBody(), connector_id: '6f1c1a38-7d53-4a0e-9b5e-000000000000' }).expect(
      404,
    );
  });

  it('allows a refresh interval above 0 for pro users only', async () => {
    const { agent: regular } = await createLoggedInUser(testApp);
    const refused = await activate(regular, { ...validBody(), refresh_interval: 15 }).expect(403);
    expect(refused.body.error).toBe('Only pro users can set a refresh interval');
    await activate(regular, { ...validBody(), refresh_interval: 0 }).expect(201);

    const { agent: pro } = await createLoggedInUser(testApp, { proUser: true });
    const created = await activate(pro, { ...validBody(), refresh_interval: 15 }).expect(201);
    const [mine] = (await pro.get('/api/connectors/my')).body;
    expect(mine).toMatchObject({ id: created.body.id, refresh_interval: 15 });
  });

  it('refuses a negative or non-numeric refresh interval', async () => {
    const { agent } = await createLoggedInUser(testApp, { proUser: true });
    await activate(agent, { ...validBody(), refresh_interval: -1 }).expect(400);
    await activate(agent, { ...validBody(), refresh_interval: 'soon' }).expect(400);
  });

  describe('PATCH connectors/instance/{id}', () => {
    it('updates settings, interval (pro), iterations, method, headers and body template for the owner', async () => {
      const { agent } = await createLoggedInUser(testApp, { proUser: true });
      const { id } = (await activate(agent).expect(201)).body;
      const response = await agent
        .patch(`/api/connectors/instance/${id}`)
        .set('Origin', TEST_ORIGIN)
        .send({
          refresh_interval: 60,
          settings: { city: ['Berlin', 'Paris'], range: { from: '2024-02-01' } },
          iterations: ['city'],
          method: 'POST',
          headers: { 'X-Trace': 'on' },
          body_template: '{"city": "{{city}}"}',
        })
        .expect(200);
      expect(response.body).toMatchObject({
        refresh_interval: 60,
        settings: { city: ['Berlin', 'Paris'], mode: 'simple', range: { from: '2024-02-01' } },
        iterations: ['city'],
        method: 'POST',
        headers: { 'X-Trace': 'on' },
        body_template: '{"city": "{{city}}"}',
        has_auth_data: true,
      });
    });

    it('applies the same rules: pro-only interval, required fields, iterated settings must be arrays, valid headers', async () => {
      const { agent } = await createLoggedInUser(testApp);
      const { id } = (await activate(agent).expect(201)).body;
      const patch = (body: Record<string, unknown>) =>
        agent.patch(`/api/connectors/instance/${id}`).set('Origin', TEST_ORIGIN).send(body);
      expect((await patch({ refresh_interval: 5 }).expect(403)).body.error).toBe(
        'Only pro users can set a refresh interval',
      );
      expect((await patch({ settings: { city: '' } }).expect(400)).body.errors).toEqual([
        'City is required',
        'From is required',
      ]);
      expect((await patch({ iterations: ['city'] }).expect(400)).body.errors).toEqual([
        "iterations: setting 'city' must hold an array of values",
      ]);
      expect((await patch({ headers: { 'Bad Header': 'x' } }).expect(400)).body.errors).toEqual([
        "headers: 'Bad Header' is not a valid header name",
      ]);
      expect((await patch({ headers: { Host: 'evil' } }).expect(400)).body.errors).toEqual([
        "headers: 'Host' cannot be set",
      ]);
      await patch({ method: 'PUT' }).expect(400);
    });

    it("holds sent settings to the connector's fields: each refusal names the field and changes nothing", async () => {
      const { agent } = await createLoggedInUser(testApp);
      const { id } = (await activate(agent).expect(201)).body;
      const mine = async () =>
        ((await agent.get('/api/connectors/my').expect(200)).body as Array<{ id: string }>).find(
          (instance) => instance.id === id,
        );
      const before = await mine();
      const patch = (settings: Record<string, unknown>) =>
        agent
          .patch(`/api/connectors/instance/${id}`)
          .set('Origin', TEST_ORIGIN)
          .send({ title: 'Renamed', settings });
      const valid = { city: 'Berlin', range: { from: '2024-01-01' } };
      const refusals: Array<[Record<string, unknown>, string[]]> = [
        [{ ...valid, mode: 'advanced', depth: 'abc' }, ['Depth (settings.depth) must be a number']],
        [{ ...valid, mode: 'expert' }, ['Mode (settings.mode) must be one of: simple, advanced']],
        [{ ...valid, ui_only: 'yes' }, ['UI only (settings.ui_only) must be true or false']],
        [{ ...valid, range: { from: 'soon' } }, ['From (settings.range.from) must be a date (YYYY-MM-DD)']],
        [
          { ...valid, sneaky: 'x', range: { from: '2024-01-01', till: 'x' } },
          [
            'settings.sneaky is not a field of this connector',
            'settings.range.till is not a field of this connector',
          ],
        ],
        [{ city: 'Berlin' }, ['From is required']],
        [{ ...valid, city: 7 }, ['City (settings.city) must be text']],
      ];
      for (const [settings, errors] of refusals) {
        expect((await patch(settings).expect(400)).body.errors).toEqual(errors);
      }
      expect(await mine()).toEqual(before);
      // Activation and a run's own settings answer by the same rule.
      const refused = await activate(agent, {
        ...validBody(),
        settings: { ...validBody().settings, depth: '3' },
      });
      expect(refused.status).toBe(400);
      expect(refused.body.errors).toEqual(['Depth (settings.depth) must be a number']);
      const run = await agent
        .post(`/api/connectors/instance/${id}/run`)
        .set('Origin', TEST_ORIGIN)
        .send({ settings: { ...valid, mode: 'expert' } })
        .expect(400);
      expect(run.body.errors).toEqual(['Mode (settings.mode) must be one of: simple, advanced']);

      const saved = await patch({ ...valid, mode: 'advanced', depth: 3, override: true }).expect(200);
      expect(saved.body).toMatchObject({
        title: 'Renamed',
        settings: { ...valid, mode: 'advanced', depth: 3, override: true },
      });
    });

    it('keeps stored auth data when the update does not resend it', async () => {
      const { agent } = await createLoggedInUser(testApp);
      const { id } = (await activate(agent).expect(201)).body;
      await agent
        .patch(`/api/connectors/instance/${id}`)
        .set('Origin', TEST_ORIGIN)
        .send({ settings: { city: 'Rome', range: { from: '2024-01-01' } }, auth_data: { extra: 'x' } })
        .expect(200);
      const [stored] = await testApp.dataSource.query(
        `SELECT auth_data_encrypted FROM connector_instances WHERE id = $1`,
        [id],
      );
      expect(JSON.parse(testApp.app.get(SecretBox).open(stored.auth_data_encrypted))).toEqual({
        api_token: 'tok-secret',
        account: 'acc-secret',
        extra: 'x',
      });
    });

    it('answers 404 to another user', async () => {
      const { agent: owner } = await createLoggedInUser(testApp);
      const { id } = (await activate(owner).expect(201)).body;
      const { agent: other } = await createLoggedInUser(testApp);
      const response = await other
        .patch(`/api/connectors/instance/${id}`)
        .set('Origin', TEST_ORIGIN)
        .send({ method: 'POST' })
        .expect(404);
      expect(response.body.error).toBe('Connector instance not found');
      await other.get(`/api/connectors/instance/${id}/runs`).expect(404);
      await other.post(`/api/connectors/instance/${id}/run`).set('Origin', TEST_ORIGIN).send({}).expect(404);
      await other.post(`/api/connectors/run/${id}`).set('Origin', TEST_ORIGIN).expect(404);
      await other.post(`/api/connectors/remove/${id}`).set('Origin', TEST_ORIGIN).expect(404);
      expect((await other.get('/api/connectors/my')).body).toEqual([]);
    });
  });

  describe('POST connectors/remove/{instanceId}', () => {
    it('deletes the instance, its runs and its table, and lowers the subscriber count', async () => {
      const { agent } = await createLoggedInUser(testApp);
      const { id } = (await activate(agent).expect(201)).body;
      const [instance] = await testApp.dataSource.query(
        `SELECT output_table_name FROM connector_instances WHERE id = $1`,
        [id],
      );
      await testApp.dataSource.query(
        `INSERT INTO connector_runs (instance_id, trigger, status) VALUES ($1, 'manual', 'failed')`,
        [id],
      );
      const before = (await testApp.http.get(`/api/connectors/${connectorId}`)).body.subscriber_count;

      const response = await agent
        .post(`/api/connectors/remove/${id}`)
        .set('Origin', TEST_ORIGIN)
        .expect(200);
      expect(response.body.message).toBe('Connector removed.');
      const [counts] = await testApp.dataSource.query(
        `SELECT (SELECT count(*)::int FROM connector_instances WHERE id = $1) AS instances,
                (SELECT count(*)::int FROM connector_runs WHERE instance_id = $1) AS runs,
                to_regclass('data.' || $2) IS NULL AS table_gone`,
        [id, instance.output_table_name],
      );
      expect(counts).toEqual({ instances: 0, runs: 0, table_gone: true });
      expect((await testApp.http.get(`/api/connectors/${connectorId}`)).body.subscriber_count).toBe(
        before - 1,
      );
      await agent.post(`/api/connectors/remove/${id}`).set('Origin', TEST_ORIGIN).expect(404);
    });
  });
});
