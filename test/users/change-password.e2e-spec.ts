import { createUser, loginAs } from '../factories/user.factory';
import { createTestApp, TEST_ORIGIN, TestApp } from '../support/test-app';

describe('password change (POST users/change-password)', () => {
  let testApp: TestApp;

  beforeAll(async () => {
    testApp = await createTestApp();
  });
  afterAll(() => testApp.close());

  const change = (agent: Awaited<ReturnType<typeof loginAs>>, body: Record<string, unknown>) =>
    agent.post('/api/users/change-password').set('Origin', TEST_ORIGIN).send(body);

  it('changes the password: the old one stops working, the new one logs in', async () => {
    const user = await createUser(testApp.dataSource);
    const agent = await loginAs(testApp, user);
    const response = await change(agent, {
      current_password: user.password,
      new_password: 'brand-new-password',
    }).expect(200);
    expect(response.body).toEqual({ message: 'Password changed' });
    await testApp.http
      .post('/api/users/login')
      .set('Origin', TEST_ORIGIN)
      .send({ email: user.email, password: user.password })
      .expect(401);
    await loginAs(testApp, { ...user, password: 'brand-new-password' });
  });

  it('ends the other sessions of the user and keeps the current one', async () => {
    const user = await createUser(testApp.dataSource);
    const other = await createUser(testApp.dataSource);
    const laptop = await loginAs(testApp, user);
    const phone = await loginAs(testApp, user);
    const someoneElse = await loginAs(testApp, other);
    await change(laptop, { current_password: user.password, new_password: 'brand-new-password' }).expect(200);
    await laptop.get('/api/users/me').expect(200);
    await phone.get('/api/users/me').expect(401);
    await someoneElse.get('/api/users/me').expect(200);
  });

  it('refuses a wrong current password with 400 and keeps the password', async () => {
    const user = await createUser(testApp.dataSource);
    const agent = await loginAs(testApp, user);
    const response = await change(agent, {
      current_password: 'not-the-password',
      new_password: 'brand-new-password',
    }).expect(400);
    expect(response.body.message).toBe('Current password is incorrect');
    await loginAs(testApp, user);
  });

  it('applies the registration rule: at least 8 characters', async () => {
    const user = await createUser(testApp.dataSource);
    const agent = await loginAs(testApp, user);
    const response = await change(agent, { current_password: user.password, new_password: 'short' }).expect(
      400,
    );
    expect(response.body.message).toBe('Password must be at least 8 characters long');
  });

  it('requires both fields', async () => {
    const user = await createUser(testApp.dataSource);
    const agent = await loginAs(testApp, user);
    const response = await change(agent, { new_password: 'brand-new-password' }).expect(400);
    expect(response.body.message).toContain('Current password is required');
  });

  it('refuses a new password equal to the current one', async () => {
    const user = await createUser(testApp.dataSource);
    const agent = await loginAs(testApp, user);
    const response = await change(agent, {
      current_password: user.password,
      new_password: user.password,
    }).expect(400);
    expect(response.body.message).toBe('The new password must differ from the current one');
  });

  it('stops guessing the current password with 429 after 5 wrong tries', async () => {
    const user = await createUser(testApp.dataSource);
    const agent = await loginAs(testApp, user);
    for (let attempt = 1; attempt <= 5; attempt++) {
      await change(agent, {
        current_password: `wrong-${attempt}`,
        new_password: 'brand-new-password',
      }).expect(400);
    }
    await change(agent, { current_password: user.password, new_password: 'brand-new-password' }).expect(429);
  });

  it('stores the new password only as an argon2 hash', async () => {
    const user = await createUser(testApp.dataSource);
    const agent = await loginAs(testApp, user);
    await change(agent, { current_password: user.password, new_password: 'brand-new-password' }).expect(200);
    const [row] = await testApp.dataSource.query(
      'SELECT row_to_json(users)::text AS dump, password_hash FROM users WHERE id = $1',
      [user.id],
    );
    expect(row.password_hash).toMatch(/^\$argon2id\$/);
    expect(row.dump).not.toContain('brand-new-password');
  });

  it('answers 401 when logged out', async () => {
    await testApp.http
      .post('/api/users/change-password')
      .set('Origin', TEST_ORIGIN)
      .send({ current_password: 'whatever-1', new_password: 'whatever-2' })
      .expect(401);
  });
});
