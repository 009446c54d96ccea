import { createLoggedInUser, createUser, TestUser } from '../factories/user.factory';
import { createTestApp, TEST_ORIGIN, TestApp } from '../support/test-app';
import { sessionCookie } from './support/cookies';
import { enableTwoFactor, totpAt, waitForMail } from './support/account-security';

const CODE_NEEDED = 'Enter the code from your authenticator app';
const INVALID_CODE = 'Invalid code';

describe('two-factor sign-in (users/two-factor, users/login/two-factor)', () => {
  let testApp: TestApp;

  beforeAll(async () => {
    testApp = await createTestApp({ TRUST_PROXY: 'true' });
  });
  afterAll(() => testApp.close());

  const randomIp = () => `10.70.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}`;
  /** A browser of its own: the password step and the code step must come from the same one. */
  const passwordStep = async (user: TestUser) => {
    const browser = testApp.agent();
    const clientIp = randomIp();
    const answer = await browser
      .post('/api/users/login')
      .set('Origin', TEST_ORIGIN)
      .set('X-Forwarded-For', clientIp)
      .send({ email: user.email, password: user.password })
      .expect(200);
    const codeStep = (body: Record<string, string>) =>
      browser
        .post('/api/users/login/two-factor')
        .set('Origin', TEST_ORIGIN)
        .set('X-Forwarded-For', clientIp)
        .send(body);
    return { browser, answer, codeStep };
  };

  it('sets up with a QR code and the secret as text, and is on only once a first code confirms it', async () => {
    const { user, agent } = await createLoggedInUser(testApp);
    expect((await agent.get('/api/users/two-factor').expect(200)).body).toEqual({
      enabled: false,
      recovery_codes_left: 0,
    });
    const setup = await agent.post('/api/users/two-factor/setup').set('Origin', TEST_ORIGIN).expect(200);
    expect(setup.headers['cache-control']).toBe('no-store');
    expect(setup.body.secret).toMatch(/^[A-Z2-7]{26,}$/);
    expect(setup.body.qr_code).toMatch(/^data:image\/png;base64,/);
    expect(setup.body.otpauth_url).toContain(`secret=${setup.body.secret}`);
    // Not on before confirming: the password alone still logs in.
    expect((await agent.get('/api/users/two-factor').expect(200)).body.enabled).toBe(false);
    const { answer } = await passwordStep(user);
    expect(answer.body.id).toBe(user.id);

    const wrong = await agent
      .post('/api/users/two-factor/enable')
      .set('Origin', TEST_ORIGIN)
      .send({ code: '000000' })
      .expect(400);
    expect(wrong.body.message).toBe(INVALID_CODE);
    const enabled = await agent
      .post('/api/users/two-factor/enable')
      .set('Origin', TEST_ORIGIN)
      .send({ code: await totpAt(setup.body.secret, Math.floor(Date.now() / 30_000)) })
      .expect(200);
    expect(enabled.body.recovery_codes).toHaveLength(10);
    expect((await agent.get('/api/users/two-factor').expect(200)).body).toEqual({
      enabled: true,
      recovery_codes_left: 10,
    });
  });

  it('keeps the secret encrypted and the recovery codes hashed', async () => {
    const { user, agent } = await createLoggedInUser(testApp);
    const { secret, recoveryCodes } = await enableTwoFactor(agent);
    const [credential] = await testApp.dataSource.query(
      `SELECT secret_sealed FROM two_factor_credentials WHERE user_id = $1`,
      [user.id],
    );
    expect(credential.secret_sealed).not.toContain(secret);
    const stored: Array<{ code_hash: string }> = await testApp.dataSource.query(
      `SELECT code_hash FROM two_factor_recovery_codes WHERE user_id = $1`,
      [user.id],
    );
    expect(stored).toHaveLength(10);
    const plain = recoveryCodes.map((code) => code.replace(/-/g, ''));
    for (const { code_hash } of stored) for (const code of plain) expect(code_hash).not.toContain(code);
  });

  it('asks for a code after the right password, without logging in, and the code completes the login', async () => {
    const { user, agent } = await createLoggedInUser(testApp);
    const { secret, timeStep } = await enableTwoFactor(agent);
    const { browser, answer, codeStep } = await passwordStep(user);
    expect(answer.body).toEqual({ two_factor_required: true, message: CODE_NEEDED });
    await testApp.http.get('/api/users/me').set('Cookie', sessionCookie(answer.headers)).expect(401);
    await browser.get('/api/users/me').expect(401);

    const done = await codeStep({ code: await totpAt(secret, timeStep + 1) }).expect(200);
    expect(done.body.id).toBe(user.id);
    expect(sessionCookie(done.headers)).not.toBe(sessionCookie(answer.headers));
    await browser.get('/api/users/me').expect(200);
  });

  it('keeps the wrong-password answer as it is for an account with two-factor on', async () => {
    const { user, agent } = await createLoggedInUser(testApp);
    await enableTwoFactor(agent);
    const wrong = await testApp.http
      .post('/api/users/login')
      .set('Origin', TEST_ORIGIN)
      .set('X-Forwarded-For', randomIp())
      .send({ email: user.email, password: 'wrong-password' })
      .expect(401);
    expect(wrong.body.message).toBe('Invalid email or password');
  });

  it('accepts a code only once', async () => {
    const { user, agent } = await createLoggedInUser(testApp);
    const { secret, timeStep } = await enableTwoFactor(agent);
    const code = await totpAt(secret, timeStep + 1);
    await (await passwordStep(user)).codeStep({ code }).expect(200);
    const replay = await (await passwordStep(user)).codeStep({ code }).expect(401);
    expect(replay.body.message).toBe(INVALID_CODE);
  });

  it('does not finish a login in a browser that did not give the password', async () => {
    const { user, agent } = await createLoggedInUser(testApp);
    const { secret, timeStep } = await enableTwoFactor(agent);
    await passwordStep(user);
    const elsewhere = await testApp.http
      .post('/api/users/login/two-factor')
      .set('Origin', TEST_ORIGIN)
      .send({ code: await totpAt(secret, timeStep + 1) })
      .expect(401);
    expect(elsewhere.body.message).toBe('Your sign-in has expired. Please log in again.');
  });

  it('limits wrong codes like passwords: after 5, even the right code waits', async () => {
    const { user, agent } = await createLoggedInUser(testApp);
    const { secret, timeStep } = await enableTwoFactor(agent);
    const { codeStep } = await passwordStep(user);
    for (let attempt = 1; attempt <= 5; attempt++) {
      expect((await codeStep({ code: '000000' }).expect(401)).body.message).toBe(INVALID_CODE);
    }
    const refused = await codeStep({ code: await totpAt(secret, timeStep + 1) }).expect(429);
    expect(refused.body.message).toBe('Too many wrong codes. Please try again in a few minutes.');
  });

  it('limits wrong recovery codes on a key of their own, leaving app codes working', async () => {
    const { user, agent } = await createLoggedInUser(testApp);
    const { secret, timeStep, recoveryCodes } = await enableTwoFactor(agent);
    const { codeStep } = await passwordStep(user);
    for (let attempt = 1; attempt <= 5; attempt++) {
      await codeStep({ recovery_code: `wrong-${attempt}` }).expect(401);
    }
    const refused = await codeStep({ recovery_code: recoveryCodes[0] }).expect(429);
    expect(refused.body.message).toBe('Too many wrong codes. Please try again in a few minutes.');
    await codeStep({ code: await totpAt(secret, timeStep + 1) }).expect(200);
  });

  it('signs in with a recovery code once, and mails the owner that it was used', async () => {
    const { user, agent } = await createLoggedInUser(testApp);
    const { recoveryCodes } = await enableTwoFactor(agent);
    const { browser, codeStep } = await passwordStep(user);
    await codeStep({ recovery_code: recoveryCodes[3].toUpperCase() }).expect(200);
    await browser.get('/api/users/me').expect(200);
    const mail = await waitForMail(testApp, user.email, 'A recovery code was used to sign in');
    expect(mail.text).toContain('You have 9 unused recovery codes left.');
    const again = await (await passwordStep(user)).codeStep({ recovery_code: recoveryCodes[3] }).expect(401);
    expect(again.body.message).toBe(INVALID_CODE);
    expect((await agent.get('/api/users/two-factor').expect(200)).body.recovery_codes_left).toBe(9);
  });

  it('turns off only with the password and a code', async () => {
    const { user, agent } = await createLoggedInUser(testApp);
    const { secret, timeStep } = await enableTwoFactor(agent);
    const code = await totpAt(secret, timeStep + 1);
    const disable = (body: Record<string, string>) =>
      agent.post('/api/users/two-factor/disable').set('Origin', TEST_ORIGIN).send(body);
    expect((await disable({ password: 'wrong-password', code }).expect(400)).body.message).toBe(
      'Password is incorrect',
    );
    expect((await disable({ password: user.password }).expect(400)).body.message).toBe(INVALID_CODE);
    expect(
      (await disable({ password: user.password, recovery_code: 'aaaa-bbbb-cccc-dddd' }).expect(400)).body
        .message,
    ).toBe(INVALID_CODE);
    expect((await disable({ password: user.password, code }).expect(200)).body.message).toBe(
      'Two-factor sign-in is off',
    );
    expect((await passwordStep(user)).answer.body.id).toBe(user.id);
    expect((await agent.get('/api/users/two-factor').expect(200)).body.enabled).toBe(false);
  });

  it('refuses a second setup while two-factor sign-in is on', async () => {
    const { agent } = await createLoggedInUser(testApp);
    await enableTwoFactor(agent);
    const again = await agent.post('/api/users/two-factor/setup').set('Origin', TEST_ORIGIN).expect(409);
    expect(again.body.message).toBe('Two-factor sign-in is already on');
  });

  it('answers 400 to the code step without a code, and 401 when no login waits for one', async () => {
    const { user, agent } = await createLoggedInUser(testApp);
    await enableTwoFactor(agent);
    const { codeStep } = await passwordStep(user);
    expect((await codeStep({}).expect(400)).body.message).toBe(CODE_NEEDED);
    // Without two-factor the password step logs in at once: no code step waits.
    const plain = await passwordStep(await createUser(testApp.dataSource));
    expect((await plain.codeStep({ code: '123456' }).expect(401)).body.message).toBe(
      'Your sign-in has expired. Please log in again.',
    );
  });
});
