import { createLoggedInUser, createUser } from '../factories/user.factory';
import { createTestApp, TEST_ORIGIN, TestApp } from '../support/test-app';
import { enableTwoFactor, totpAt, waitForMail } from '../users/support/account-security';
import { countEvents, lastEvent } from './support';

const BROWSER = 'Mozilla/5.0 (X11; Linux x86_64) AuditTest/1.0';

describe('audit log: account security events', () => {
  let testApp: TestApp;

  beforeAll(async () => {
    testApp = await createTestApp({ TRUST_PROXY: 'true' });
  });
  afterAll(() => testApp.close());

  it('records a sign-in with the session, the client address and the browser', async () => {
    const user = await createUser(testApp.dataSource);
    const agent = testApp.agent();
    await agent
      .post('/api/users/login')
      .set('Origin', TEST_ORIGIN)
      .set('X-Forwarded-For', '203.0.113.7')
      .set('User-Agent', BROWSER)
      .send({ email: user.email, password: user.password })
      .expect(200);
    const event = await lastEvent(testApp, user.id, 'sign_in');
    expect(event).toMatchObject({ credential_kind: 'session', ip: '203.0.113.7', user_agent: BROWSER });
    // The Sessions list's id of this very session, never the cookie's secret id.
    const sessions = await agent.get('/api/users/sessions').expect(200);
    expect(sessions.body.map((session: { id: string }) => session.id)).toContain(event!.credential_id);
  });

  it('records a failed sign-in for a known account, without a credential, and nothing for an unknown one', async () => {
    const user = await createUser(testApp.dataSource);
    await testApp.http
      .post('/api/users/login')
      .set('Origin', TEST_ORIGIN)
      .set('X-Forwarded-For', '198.51.100.9')
      .send({ email: user.email, password: 'wrong-password-here' })
      .expect(401);
    const event = await lastEvent(testApp, user.id, 'sign_in_failed');
    expect(event).toMatchObject({ credential_kind: 'none', credential_id: null, ip: '198.51.100.9' });
    expect(JSON.stringify(event)).not.toContain('wrong-password-here');
    const before = await testApp.dataSource.query(`SELECT count(*)::int AS n FROM audit_events`);
    await testApp.http
      .post('/api/users/login')
      .set('Origin', TEST_ORIGIN)
      .send({ email: `nobody-${user.id}@example.test`, password: 'whatever-password' })
      .expect(401);
    const unknown = await testApp.dataSource.query(
      `SELECT count(*)::int AS n FROM audit_events WHERE detail::text LIKE $1`,
      [`%nobody-${user.id}%`],
    );
    expect(unknown[0].n).toBe(0);
    expect(before[0].n).toBeGreaterThan(0);
  });

  it('records sign-out, password change, personal key rotation and named tokens, never the secrets', async () => {
    const { user, agent } = await createLoggedInUser(testApp);
    await agent
      .post('/api/users/change-password')
      .set('Origin', TEST_ORIGIN)
      .send({ current_password: user.password, new_password: 'a-brand-new-password-1' })
      .expect(200);
    expect(await lastEvent(testApp, user.id, 'password_changed')).toMatchObject({
      credential_kind: 'session',
    });

    const key = await agent.post('/api/dev/apikey').set('Origin', TEST_ORIGIN).send({ email: user.email });
    expect(key.status).toBeLessThan(300);
    expect(await lastEvent(testApp, user.id, 'api_key_rotated')).toBeDefined();

    const created = await agent
      .post('/api/users/tokens')
      .set('Origin', TEST_ORIGIN)
      .send({ name: 'BI', scopes: ['stream'] })
      .expect(201);
    expect((await lastEvent(testApp, user.id, 'api_token_created'))!.detail).toEqual({
      token_id: created.body.id,
    });
    await agent.delete(`/api/users/tokens/${created.body.id}`).set('Origin', TEST_ORIGIN).expect(200);
    expect((await lastEvent(testApp, user.id, 'api_token_revoked'))!.detail).toEqual({
      token_id: created.body.id,
    });

    await agent.post('/api/users/logout').set('Origin', TEST_ORIGIN).expect(200);
    expect(await lastEvent(testApp, user.id, 'sign_out')).toMatchObject({ credential_kind: 'session' });

    const all = JSON.stringify(
      await testApp.dataSource.query(`SELECT * FROM audit_events WHERE user_id = $1`, [user.id]),
    );
    expect(all).not.toContain(created.body.token);
    expect(all).not.toContain(key.body.api_key ?? 'no-key-in-answer');
    expect(all).not.toContain('a-brand-new-password-1');
  });

  it('records two-factor sign-in turned on and off', async () => {
    const { user, agent } = await createLoggedInUser(testApp);
    const { secret, timeStep } = await enableTwoFactor(agent);
    expect(await lastEvent(testApp, user.id, 'two_factor_enabled')).toMatchObject({
      credential_kind: 'session',
    });
    await agent
      .post('/api/users/two-factor/disable')
      .set('Origin', TEST_ORIGIN)
      .send({ password: user.password, code: await totpAt(secret, timeStep + 1) })
      .expect(200);
    expect(await lastEvent(testApp, user.id, 'two_factor_disabled')).toBeDefined();
  });

  it('records a password reset by link for the account, in the reset’s own transaction', async () => {
    const user = await createUser(testApp.dataSource);
    await testApp.http
      .post('/api/users/forgot-password')
      .set('Origin', TEST_ORIGIN)
      .send({ email: user.email })
      .expect(200);
    const message = await waitForMail(testApp, user.email, 'Reset your password');
    const link = message.links.find((candidate) => candidate.includes('/reset-password?token='))!;
    const token = new URL(link).searchParams.get('token')!;
    await testApp.http
      .post('/api/users/reset-password')
      .set('Origin', TEST_ORIGIN)
      .set('X-Forwarded-For', '192.0.2.44')
      .send({ token, new_password: 'reset-to-this-password' })
      .expect(200);
    expect(await lastEvent(testApp, user.id, 'password_reset')).toMatchObject({ ip: '192.0.2.44' });
    // A used link fails and records nothing more.
    await testApp.http
      .post('/api/users/reset-password')
      .set('Origin', TEST_ORIGIN)
      .send({ token, new_password: 'reset-to-this-password' })
      .expect(400);
    expect(await countEvents(testApp, user.id, 'password_reset')).toBe(1);
  });
});
