import { randomUUID } from 'node:crypto';
import { sha256Hex } from '../../src/common/crypto/secret-box';
import { outboxFor, registerThroughApi } from '../factories/mail.factory';
import { createTestApp, TEST_ORIGIN, TestApp } from '../support/test-app';

const uniqueEmail = (label = 'reg') => `${label}-${randomUUID()}@example.test`;

describe('registration and e-mail verification', () => {
  let testApp: TestApp;

  beforeAll(async () => {
    testApp = await createTestApp();
  });
  afterAll(() => testApp.close());

  const register = (body: Record<string, unknown>) =>
    testApp.http.post('/api/users/register').set('Origin', TEST_ORIGIN).send(body);

  describe('validation', () => {
    it.each([
      ['name is missing', { email: uniqueEmail(), password: 'long-enough-password' }, 'Name is required'],
      [
        'name is blank',
        { name: '   ', email: uniqueEmail(), password: 'long-enough-password' },
        'Name is required',
      ],
      ['e-mail is missing', { name: 'Ada', password: 'long-enough-password' }, 'Email is required'],
      [
        'e-mail is invalid',
        { name: 'Ada', email: 'not-an-email', password: 'long-enough-password' },
        'Please enter a valid email address',
      ],
      ['password is missing', { name: 'Ada', email: uniqueEmail() }, 'Password is required'],
      [
        'password is shorter than 8',
        { name: 'Ada', email: uniqueEmail(), password: 'short77' },
        'Password must be at least 8 characters long',
      ],
    ])('refuses with 400 and a message when the %s', async (_case, body, message) => {
      const response = await register(body).expect(400);
      expect(response.body.message).toContain(message);
      expect(response.body.error).toBe(response.body.message);
    });

    it('refuses unknown fields such as pro_user', async () => {
      const response = await register({
        name: 'Ada',
        email: uniqueEmail(),
        password: 'long-enough-password',
        pro_user: 1,
      }).expect(400);
      expect(response.body.message).toMatch(/pro_user/);
    });

    it('creates no account when validation fails', async () => {
      const email = uniqueEmail();
      await register({ name: 'Ada', email, password: 'short' }).expect(400);
      const rows = await testApp.dataSource.query('SELECT 1 FROM users WHERE email = $1', [email]);
      expect(rows).toHaveLength(0);
    });
  });

  it('registers an unverified account and answers with the success text', async () => {
    const email = uniqueEmail();
    const response = await register({ name: 'Ada', email, password: 'long-enough-password' }).expect(201);
    expect(response.body).toEqual({ message: 'Registration successful. Please verify your email.' });
    const [row] = await testApp.dataSource.query(
      'SELECT name, email_verified_at, pro_user FROM users WHERE email = $1',
      [email],
    );
    expect(row).toEqual({ name: 'Ada', email_verified_at: null, pro_user: false });
  });

  it('stores an argon2 hash and never the password itself', async () => {
    const email = uniqueEmail();
    const password = `secret-${randomUUID()}`;
    await register({ name: 'Ada', email, password }).expect(201);
    const [row] = await testApp.dataSource.query(
      'SELECT row_to_json(users)::text AS dump, password_hash FROM users WHERE email = $1',
      [email],
    );
    expect(row.password_hash).toMatch(/^\$argon2id\$/);
    expect(row.dump).not.toContain(password);
    const [{ found }] = await testApp.dataSource.query(
      `SELECT count(*)::int AS found FROM mail_outbox WHERE text LIKE '%' || $1 || '%' OR html LIKE '%' || $1 || '%'`,
      [password],
    );
    expect(found).toBe(0);
  });

  it('answers a taken e-mail exactly like a new one and tells the owner by e-mail instead', async () => {
    const email = uniqueEmail();
    const fresh = await register({ name: 'Ada', email, password: 'long-enough-password' }).expect(201);
    const taken = await register({ name: 'Bob', email, password: 'another-password' }).expect(201);
    expect(taken.body).toEqual(fresh.body);
    const [note] = await outboxFor(testApp, email);
    expect(note.subject).toBe('You already have an account');
    expect(note.links).not.toContainEqual(expect.stringContaining('/verify-email/'));
    const rows = await testApp.dataSource.query('SELECT name FROM users WHERE lower(email) = lower($1)', [
      email,
    ]);
    expect(rows).toEqual([{ name: 'Ada' }]);
  });

  it('treats an e-mail that differs from a taken one only in case as taken, with the same answer', async () => {
    const email = uniqueEmail('Case');
    await register({ name: 'Ada', email, password: 'long-enough-password' }).expect(201);
    const response = await register({
      name: 'Bob',
      email: email.toUpperCase(),
      password: 'another-password',
    }).expect(201);
    expect(response.body).toEqual({ message: 'Registration successful. Please verify your email.' });
    const rows = await testApp.dataSource.query('SELECT name FROM users WHERE lower(email) = lower($1)', [
      email,
    ]);
    expect(rows).toEqual([{ name: 'Ada' }]);
  });

  it('mails a verification link to /verify-email/{token} on the app origin', async () => {
    const email = uniqueEmail();
    await register({ name: 'Ada', email, password: 'long-enough-password' }).expect(201);
    const [message] = await outboxFor(testApp, email);
    expect(message.subject).toBe('Verify your email address');
    expect(message.links).toHaveLength(1);
    expect(message.links[0]).toMatch(new RegExp(`^${TEST_ORIGIN}/verify-email/[A-Za-z0-9_-]{43}$`));
  });

  it('lets the outbox be read case-insensitively and only for the given recipient', async () => {
    const email = uniqueEmail('Mixed');
    await register({ name: 'Ada', email, password: 'long-enough-password' }).expect(201);
    expect(await outboxFor(testApp, email.toLowerCase())).toHaveLength(1);
    expect(await outboxFor(testApp, uniqueEmail('nobody'))).toEqual([]);
  });

  it('stores only a hash of the verification token', async () => {
    const email = uniqueEmail();
    const token = await registerThroughApi(testApp, { email });
    const [row] = await testApp.dataSource.query(
      `SELECT token_hash FROM email_verification_tokens WHERE user_id = (SELECT id FROM users WHERE email = $1)`,
      [email],
    );
    expect(row.token_hash).toBe(sha256Hex(token));
    expect(row.token_hash).not.toContain(token);
  });

  it('verifies the e-mail once with a valid link', async () => {
    const email = uniqueEmail();
    const token = await registerThroughApi(testApp, { email });
    const response = await testApp.http.get(`/api/users/verify-email/${token}`).expect(200);
    expect(response.body).toEqual({ message: 'Email verified' });
    const [row] = await testApp.dataSource.query('SELECT email_verified_at FROM users WHERE email = $1', [
      email,
    ]);
    expect(row.email_verified_at).toBeInstanceOf(Date);
  });

  it('refuses a link that was already used with 400 and a message', async () => {
    const token = await registerThroughApi(testApp, { email: uniqueEmail() });
    await testApp.http.get(`/api/users/verify-email/${token}`).expect(200);
    const response = await testApp.http.get(`/api/users/verify-email/${token}`).expect(400);
    expect(response.body.message).toBe('This verification link has already been used');
  });

  it('refuses an expired link (older than 24 hours) and leaves the account unverified', async () => {
    const email = uniqueEmail();
    const token = await registerThroughApi(testApp, { email });
    await testApp.dataSource.query(
      `UPDATE email_verification_tokens SET expires_at = now() - interval '1 second'
       WHERE user_id = (SELECT id FROM users WHERE email = $1)`,
      [email],
    );
    const response = await testApp.http.get(`/api/users/verify-email/${token}`).expect(400);
    expect(response.body.message).toBe('This verification link has expired. Please register again.');
    const [row] = await testApp.dataSource.query('SELECT email_verified_at FROM users WHERE email = $1', [
      email,
    ]);
    expect(row.email_verified_at).toBeNull();
  });

  it('frees the e-mail of an account left unverified until its link expired', async () => {
    const email = uniqueEmail();
    const oldToken = await registerThroughApi(testApp, { email });
    await register({ name: 'Again', email, password: 'long-enough-password' }).expect(201);
    await testApp.dataSource.query(
      `UPDATE email_verification_tokens SET expires_at = now() - interval '1 second'
       WHERE user_id = (SELECT id FROM users WHERE email = $1)`,
      [email],
    );
    const newToken = await registerThroughApi(testApp, { name: 'Again', email });
    expect(newToken).not.toBe(oldToken);
    await testApp.http.get(`/api/users/verify-email/${newToken}`).expect(200);
    const rows = await testApp.dataSource.query('SELECT name FROM users WHERE lower(email) = lower($1)', [
      email,
    ]);
    expect(rows).toEqual([{ name: 'Again' }]);
  });

  it('keeps a verified account even when its old links expired', async () => {
    const email = uniqueEmail();
    const token = await registerThroughApi(testApp, { email });
    await testApp.http.get(`/api/users/verify-email/${token}`).expect(200);
    await testApp.dataSource.query(
      `UPDATE email_verification_tokens SET expires_at = now() - interval '1 second'
       WHERE user_id = (SELECT id FROM users WHERE email = $1)`,
      [email],
    );
    await register({ name: 'Intruder', email, password: 'long-enough-password' }).expect(201);
    const [row] = await testApp.dataSource.query('SELECT email_verified_at FROM users WHERE email = $1', [
      email,
    ]);
    expect(row.email_verified_at).not.toBeNull();
  });

  it('gives links a lifetime of 24 hours', async () => {
    const email = uniqueEmail();
    await registerThroughApi(testApp, { email });
    const [row] = await testApp.dataSource.query(
      `SELECT extract(epoch FROM expires_at - created_at)::int AS seconds FROM email_verification_tokens
       WHERE user_id = (SELECT id FROM users WHERE email = $1)`,
      [email],
    );
    expect(Math.abs(row.seconds - 24 * 3600)).toBeLessThan(5);
  });

  it('refuses an unknown token with 400 and a message', async () => {
    const response = await testApp.http.get('/api/users/verify-email/not-a-real-token').expect(400);
    expect(response.body.message).toBe('Invalid verification link');
  });

  it('lets the newly verified user log in', async () => {
    const email = uniqueEmail();
    const token = await registerThroughApi(testApp, { email, password: 'long-enough-password' });
    await testApp.http.get(`/api/users/verify-email/${token}`).expect(200);
    await testApp.http
      .post('/api/users/login')
      .set('Origin', TEST_ORIGIN)
      .send({ email, password: 'long-enough-password' })
      .expect(200);
  });
});
