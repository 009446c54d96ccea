import { DEMO_USER } from '../../src/database/seed/seed-context';
import { DemoUserSeeder } from '../../src/database/seed/demo-user.seeder';
import { FLAG_USAGE, parseFlagArguments, setUserFlag } from '../../src/users/user-flags';
import { UsersService } from '../../src/users/users.service';
import { createUser } from '../factories/user.factory';
import { createTestApp, TEST_ORIGIN, TestApp } from '../support/test-app';

describe('user flags (npm run user:pro / user:editor) and the demo user', () => {
  let testApp: TestApp;

  beforeAll(async () => {
    testApp = await createTestApp();
  });
  afterAll(() => testApp.close());

  const flags = async (id: string) =>
    (await testApp.dataSource.query('SELECT pro_user, blog_editor FROM users WHERE id = $1', [id]))[0];

  it('reads `<pro|editor> <email> [on|off]` with on as default', () => {
    expect(parseFlagArguments(['pro', 'a@example.test'])).toEqual({
      flag: 'pro',
      email: 'a@example.test',
      enabled: true,
    });
    expect(parseFlagArguments(['editor', 'a@example.test', 'off'])).toEqual({
      flag: 'editor',
      email: 'a@example.test',
      enabled: false,
    });
  });

  it.each([
    [[]],
    [['pro']],
    [['admin', 'a@example.test']],
    [['pro', 'a@example.test', 'maybe']],
    [['pro', 'a@x.test', 'on', 'extra']],
  ])('refuses the arguments %j with the usage text', (argv) => {
    expect(() => parseFlagArguments(argv)).toThrow(FLAG_USAGE);
  });

  it('turns pro_user on and off, visible in users/me as 1 and 0', async () => {
    const user = await createUser(testApp.dataSource);
    expect(
      await setUserFlag(testApp.dataSource, { flag: 'pro', email: user.email.toUpperCase(), enabled: true }),
    ).toBe(true);
    expect(await flags(user.id)).toEqual({ pro_user: true, blog_editor: false });

    const agent = testApp.agent();
    await agent
      .post('/api/users/login')
      .set('Origin', TEST_ORIGIN)
      .send({ email: user.email, password: user.password })
      .expect(200);
    expect((await agent.get('/api/users/me').expect(200)).body.pro_user).toBe(1);

    await setUserFlag(testApp.dataSource, { flag: 'pro', email: user.email, enabled: false });
    expect((await agent.get('/api/users/me').expect(200)).body.pro_user).toBe(0);
  });

  it('turns blog_editor on and off without touching pro_user', async () => {
    const user = await createUser(testApp.dataSource, { proUser: true });
    await setUserFlag(testApp.dataSource, { flag: 'editor', email: user.email, enabled: true });
    expect(await flags(user.id)).toEqual({ pro_user: true, blog_editor: true });
    await setUserFlag(testApp.dataSource, { flag: 'editor', email: user.email, enabled: false });
    expect(await flags(user.id)).toEqual({ pro_user: true, blog_editor: false });
  });

  it('reports an unknown e-mail', async () => {
    expect(
      await setUserFlag(testApp.dataSource, { flag: 'pro', email: 'nobody@example.test', enabled: true }),
    ).toBe(false);
  });

  it('seeds a verified demo user (pro user, blog editor, API key) once and returns its id', async () => {
    const seeder = testApp.app.get(DemoUserSeeder);
    const [first, second] = [await seeder.run(), await seeder.run()];
    expect(second).toBe(first);
    const rows = await testApp.dataSource.query(
      'SELECT id, email_verified_at, pro_user, blog_editor, api_key_hash FROM users WHERE lower(email) = lower($1)',
      [DEMO_USER.email],
    );
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      id: first,
      pro_user: true,
      blog_editor: true,
      api_key_hash: expect.any(String),
    });
    expect(rows[0].email_verified_at).toBeInstanceOf(Date);

    const agent = testApp.agent();
    await agent
      .post('/api/users/login')
      .set('Origin', TEST_ORIGIN)
      .send({ email: DEMO_USER.email, password: DEMO_USER.password })
      .expect(200);
    const me = (await agent.get('/api/users/me').expect(200)).body;
    expect(me).toMatchObject({ id: first, pro_user: 1, blog_editor: 1 });
    expect(await testApp.app.get(UsersService).findByApiKey(me.api_key)).toMatchObject({ id: first });
  });
});
