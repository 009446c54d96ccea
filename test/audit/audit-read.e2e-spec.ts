import { parse } from 'csv-parse/sync';
import { createLoggedInUser } from '../factories/user.factory';
import { createTestApp, TEST_ORIGIN, TestApp } from '../support/test-app';

describe('audit log: reading and exporting one’s own (GET audit/me)', () => {
  let testApp: TestApp;

  beforeAll(async () => {
    testApp = await createTestApp();
  });
  afterAll(() => testApp.close());

  /** A user with a sign-in and three token events behind them. */
  async function busyUser() {
    const actor = await createLoggedInUser(testApp);
    const created = await actor.agent
      .post('/api/users/tokens')
      .set('Origin', TEST_ORIGIN)
      .send({ name: 'Export, "quoted"', scopes: ['query'] })
      .expect(201);
    await actor.agent.delete(`/api/users/tokens/${created.body.id}`).set('Origin', TEST_ORIGIN).expect(200);
    return { ...actor, tokenId: created.body.id as string };
  }

  it('lists the user’s events newest first, pages them and filters by type and time', async () => {
    const { agent, user } = await busyUser();
    const all = (await agent.get('/api/audit/me').expect(200)).body;
    // Who acted: in one's own log, always oneself (an organisation's log names its members).
    expect(all.map((event: { user_id: string }) => event.user_id)).toEqual([user.id, user.id, user.id]);
    expect(all.map((event: { type: string }) => event.type)).toEqual([
      'api_token_revoked',
      'api_token_created',
      'sign_in',
    ]);
    expect(all[2]).toMatchObject({ credential: { kind: 'session' }, detail: {} });
    const first = (await agent.get('/api/audit/me?limit=1').expect(200)).body;
    expect(first.map((event: { id: string }) => event.id)).toEqual([all[0].id]);
    const next = (await agent.get(`/api/audit/me?limit=1&before=${first[0].id}`).expect(200)).body;
    expect(next.map((event: { id: string }) => event.id)).toEqual([all[1].id]);
    const tokens = (await agent.get('/api/audit/me?type=api_token_created,api_token_revoked').expect(200))
      .body;
    expect(tokens).toHaveLength(2);
    const future = new Date(Date.now() + 3600_000).toISOString();
    expect((await agent.get(`/api/audit/me?from=${future}`).expect(200)).body).toEqual([]);
    expect((await agent.get(`/api/audit/me?to=${future}`).expect(200)).body).toHaveLength(3);
    await agent.get('/api/audit/me?type=not_a_type').expect(400);
  });

  it('never shows one user another’s events, and refuses a visitor', async () => {
    const first = await busyUser();
    const second = await createLoggedInUser(testApp);
    const theirs = (await second.agent.get('/api/audit/me').expect(200)).body;
    expect(theirs.map((event: { type: string }) => event.type)).toEqual(['sign_in']);
    const exported = await second.agent.get('/api/audit/me/export?format=jsonl').expect(200);
    expect(exported.text).not.toContain(first.tokenId);
    await testApp.http.get('/api/audit/me').expect(401);
    await testApp.http.get('/api/audit/me/export').expect(401);
  });

  it('exports CSV that a CSV parser reads back, and JSON Lines, as downloads', async () => {
    const { agent, tokenId } = await busyUser();
    const csv = await agent.get('/api/audit/me/export?format=csv').expect(200);
    expect(csv.headers['content-type']).toMatch(/^text\/csv/);
    expect(csv.headers['content-disposition']).toBe('attachment; filename="activity-log.csv"');
    const rows: Array<Record<string, string>> = parse(csv.text, { columns: true });
    expect(rows.map((row) => row.type)).toEqual(['api_token_revoked', 'api_token_created', 'sign_in']);
    expect(JSON.parse(rows[0].detail)).toEqual({ token_id: tokenId });
    expect(rows[2].credential_kind).toBe('session');
    expect(Object.keys(rows[0])).toEqual([
      'id',
      'occurred_at',
      'type',
      'credential_kind',
      'credential_id',
      'ip',
      'user_agent',
      'detail',
      'user_id',
    ]);

    const jsonl = await agent.get('/api/audit/me/export?format=jsonl&type=sign_in').expect(200);
    expect(jsonl.headers['content-type']).toMatch(/^application\/jsonl/);
    const lines = jsonl.text
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ type: 'sign_in', credential: { kind: 'session' } });
    await agent.get('/api/audit/me/export?format=xml').expect(400);
  });

  it('is append-only in the database: UPDATE, DELETE and TRUNCATE fail', async () => {
    const { user } = await busyUser();
    const where = [user.id];
    await expect(
      testApp.dataSource.query(`UPDATE audit_events SET type = 'sign_out' WHERE user_id = $1`, where),
    ).rejects.toThrow(/append-only/);
    await expect(
      testApp.dataSource.query(`DELETE FROM audit_events WHERE user_id = $1`, where),
    ).rejects.toThrow(/append-only/);
    await expect(testApp.dataSource.query(`TRUNCATE audit_events`)).rejects.toThrow(/append-only/);
    const [{ n }] = await testApp.dataSource.query(
      `SELECT count(*)::int AS n FROM audit_events WHERE user_id = $1 AND type <> 'sign_out'`,
      where,
    );
    expect(n).toBe(3);
  });

  it('keeps a deleted user’s events, with their id', async () => {
    const { user } = await busyUser();
    await testApp.dataSource.query(`DELETE FROM users WHERE id = $1`, [user.id]);
    const [{ n }] = await testApp.dataSource.query(
      `SELECT count(*)::int AS n FROM audit_events WHERE user_id = $1`,
      [user.id],
    );
    expect(n).toBe(3);
  });
});
