import { randomUUID } from 'node:crypto';
import type { Test } from 'supertest';
import type TestAgent from 'supertest/lib/agent';
import { LIKE_NETWORK_LIMIT, TOO_MANY_LIKES } from '../../src/blog/blog.service';
import { RateLimiterService } from '../../src/common/rate-limit/rate-limiter.service';
import { LOGIN_FAILURES_PER_IP, TOO_MANY_ATTEMPTS_MESSAGE } from '../../src/users/auth/credentials.service';
import { uploadDataset } from '../factories/asset.factory';
import { createPost } from '../factories/blog.factory';
import { createConnector } from '../factories/connector.factory';
import { createLoggedInUser, createUser, TestUser } from '../factories/user.factory';
import { createTestApp, TEST_ORIGIN, TestApp } from '../support/test-app';
import { sessionCookie } from '../users/support/cookies';
import { expectUnchanged } from './support/footprint';

type Agent = TestAgent<Test>;
const CROSS_ORIGIN = 'Cross-origin request refused';
const LOGIN_REQUIRED = 'Please log in to continue';

/** The session id inside a signed `dm.sid=s:<id>.<signature>` cookie. */
function sessionIdOf(cookie: string): string {
  return decodeURIComponent(cookie.split('=')[1]).replace(/^s:/, '').split('.')[0];
}

async function sessionRows(testApp: TestApp, sid: string): Promise<number> {
  const [row] = await testApp.dataSource.query(`SELECT count(*)::int AS count FROM session WHERE sid = $1`, [
    sid,
  ]);
  return row.count;
}

describe('abuse: sessions, CSRF and rate limits', () => {
  let testApp: TestApp;

  // Behind one trusted proxy, so each test fails logins and likes from its own client address.
  beforeAll(async () => {
    testApp = await createTestApp({ TRUST_PROXY: 'true' });
  });
  afterAll(() => testApp.close());

  const clientIp = () => `10.77.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}`;
  const loginWith = (cookie: string | undefined, user: TestUser) => {
    const request = testApp.http
      .post('/api/users/login')
      .set('Origin', TEST_ORIGIN)
      .set('X-Forwarded-For', clientIp());
    if (cookie) request.set('Cookie', cookie);
    return request.send({ email: user.email, password: user.password });
  };
  const me = (cookie: string) => testApp.http.get('/api/users/me').set('Cookie', cookie);

  describe('session fixation', () => {
    it('gives a fresh session id at login, and the planted one never becomes the victim’s', async () => {
      const attacker = await createUser(testApp.dataSource);
      const victim = await createUser(testApp.dataSource);
      const planted = sessionCookie((await loginWith(undefined, attacker).expect(200)).headers);

      const login = await loginWith(planted, victim).expect(200);
      const issued = sessionCookie(login.headers);
      expect(sessionIdOf(issued)).not.toBe(sessionIdOf(planted));
      expect((await me(issued).expect(200)).body.id).toBe(victim.id);
      const replay = await me(planted).expect(401);
      expect(replay.body.error).toBe(LOGIN_REQUIRED);
      expect(await sessionRows(testApp, sessionIdOf(planted))).toBe(0);
    });

    it('ignores a forged or tampered session cookie', async () => {
      const user = await createUser(testApp.dataSource);
      const genuine = sessionCookie((await loginWith(undefined, user).expect(200)).headers);
      const sid = sessionIdOf(genuine);
      for (const forged of [
        `dm.sid=${encodeURIComponent(`s:${sid}.forged-signature`)}`,
        `dm.sid=${encodeURIComponent(sid)}`,
        `dm.sid=${encodeURIComponent(`s:${randomUUID()}.x`)}`,
      ]) {
        expect((await me(forged).expect(401)).body.error).toBe(LOGIN_REQUIRED);
      }
      const login = await loginWith(`dm.sid=${encodeURIComponent(`s:chosen-by-attacker.sig`)}`, user).expect(
        200,
      );
      expect(sessionIdOf(sessionCookie(login.headers))).not.toBe('chosen-by-attacker');
    });

    it('sets the session cookie httpOnly and SameSite=Lax', async () => {
      const user = await createUser(testApp.dataSource);
      const line = (await loginWith(undefined, user).expect(200)).headers[
        'set-cookie'
      ] as unknown as string[];
      const cookie = line.find((entry) => entry.startsWith('dm.sid='))!;
      expect(cookie).toMatch(/; HttpOnly/);
      expect(cookie).toMatch(/; SameSite=Lax/);
      expect(cookie).toMatch(/; Path=\//);
    });
  });

  describe('logout', () => {
    it('ends the session in the store: the old cookie no longer works', async () => {
      const user = await createUser(testApp.dataSource);
      const cookie = sessionCookie((await loginWith(undefined, user).expect(200)).headers);
      expect(await sessionRows(testApp, sessionIdOf(cookie))).toBe(1);
      const logout = await testApp.http
        .post('/api/users/logout')
        .set('Origin', TEST_ORIGIN)
        .set('Cookie', cookie)
        .expect(200);
      expect(logout.body).toEqual({ message: 'Logged out' });
      expect(String(logout.headers['set-cookie'])).toMatch(/dm\.sid=;.*Expires=Thu, 01 Jan 1970/);
      expect(await sessionRows(testApp, sessionIdOf(cookie))).toBe(0);
      expect((await me(cookie).expect(401)).body.error).toBe(LOGIN_REQUIRED);
      const write = await testApp.http
        .post('/api/dev/apikey')
        .set('Origin', TEST_ORIGIN)
        .set('Cookie', cookie)
        .send({ email: user.email })
        .expect(401);
      expect(write.body.error).toBe(LOGIN_REQUIRED);
    });

    it('leaves the user’s other sessions alone', async () => {
      const user = await createUser(testApp.dataSource);
      const first = sessionCookie((await loginWith(undefined, user).expect(200)).headers);
      const second = sessionCookie((await loginWith(undefined, user).expect(200)).headers);
      await testApp.http
        .post('/api/users/logout')
        .set('Origin', TEST_ORIGIN)
        .set('Cookie', first)
        .expect(200);
      expect((await me(second).expect(200)).body.id).toBe(user.id);
    });
  });

  describe('cross-origin state changes', () => {
    let victim: { user: TestUser; agent: Agent };
    let assetId: string;
    let instanceId: string;
    let slug: string;

    beforeAll(async () => {
      victim = await createLoggedInUser(testApp, { blogEditor: true });
      assetId = await uploadDataset(victim.agent, { title: 'Victim data' });
      const connector = await createConnector(testApp.dataSource);
      instanceId = (
        await victim.agent
          .post('/api/connectors/activate')
          .set('Origin', TEST_ORIGIN)
          .send({ connector_id: connector.id })
          .expect(201)
      ).body.id;
      slug = (await createPost(testApp.dataSource)).slug;
    });

    const writes = () =>
      [
        ['POST', '/api/users/logout', {}],
        [
          'POST',
          '/api/users/change-password',
          { current_password: 'correct-horse-battery', new_password: 'attacker-choice' },
        ],
        ['POST', '/api/dev/apikey', { email: victim.user.email }],
        ['POST', '/api/access/remove', { assetId }],
        ['POST', '/api/access/grant', { assetId }],
        ['POST', '/api/connectors/activate', { connector_id: randomUUID() }],
        ['PATCH', `/api/connectors/instance/${instanceId}`, { title: 'Hijacked' }],
        ['POST', `/api/connectors/instance/${instanceId}/run`, {}],
        ['POST', `/api/connectors/run/${instanceId}`, {}],
        ['POST', `/api/connectors/remove/${instanceId}`, {}],
        ['POST', '/api/connectors/upload', { title: 'Planted', spec: {} }],
        ['POST', '/api/blog', { title: 'Planted', slug: `planted-${Date.now()}` }],
        ['POST', `/api/blog/${slug}/like`, {}],
        [
          'POST',
          '/api/users/register',
          { name: 'X', email: `csrf-${randomUUID()}@example.test`, password: 'long-enough-1' },
        ],
      ] as const;

    it.each([
      ['another site', { Origin: 'https://evil.example' }],
      ['a look-alike host', { Origin: 'http://localhost:3000.evil.example' }],
      ['another port of the same host', { Origin: 'http://localhost:4000' }],
      ['https instead of http', { Origin: 'https://localhost:3000' }],
      ['an opaque origin (sandboxed frame)', { Origin: 'null' }],
      ['another site’s Referer without Origin', { Referer: 'https://evil.example/attack.html' }],
    ])('refuses every write from %s with 403, changing nothing', async (_name, headers) => {
      await expectUnchanged(testApp.dataSource, [victim.user.id], async () => {
        for (const [method, url, body] of writes()) {
          const request = method === 'PATCH' ? victim.agent.patch(url) : victim.agent.post(url);
          const response = await request.set(headers).send(body);
          expect({ url, status: response.status, error: response.body.error }).toEqual({
            url,
            status: 403,
            error: CROSS_ORIGIN,
          });
        }
      });
      expect((await victim.agent.get('/api/users/me').expect(200)).body.id).toBe(victim.user.id);
      const [likes] = await testApp.dataSource.query(`SELECT likes FROM blog_posts WHERE slug = $1`, [slug]);
      expect(likes.likes).toBe(0);
    });

    it('refuses a cross-site form post (urlencoded) just the same', async () => {
      await expectUnchanged(testApp.dataSource, [victim.user.id], async () => {
        const response = await victim.agent
          .post('/api/access/remove')
          .set('Origin', 'https://evil.example')
          .type('form')
          .send(`assetId=${assetId}`);
        expect(response.status).toBe(403);
      });
    });

    it('refuses a browser’s state change that carries neither Origin nor Referer', async () => {
      await expectUnchanged(testApp.dataSource, [victim.user.id], async () => {
        // The session cookie marks it as a browser's request.
        const withCookie = await victim.agent.post('/api/access/remove').send({ assetId });
        expect(withCookie.status).toBe(403);
        expect(withCookie.body.error).toBe(CROSS_ORIGIN);
        // So does Fetch Metadata, even without a session yet (a login planted from another site).
        const user = await createUser(testApp.dataSource);
        const planted = await testApp.http
          .post('/api/users/login')
          .set('Sec-Fetch-Site', 'cross-site')
          .send({ email: user.email, password: user.password });
        expect(planted.status).toBe(403);
        expect(planted.headers['set-cookie']).toBeUndefined();
      });
    });

    it('checks the origin of a session request even when it carries ?api_key= or X-API-Key', async () => {
      await expectUnchanged(testApp.dataSource, [victim.user.id], async () => {
        for (const withKey of [
          victim.agent.post('/api/access/remove').query({ api_key: 'anything' }),
          victim.agent.post('/api/access/remove').set('X-API-Key', 'anything'),
        ]) {
          const response = await withKey.send({ assetId });
          expect(response.status).toBe(403);
          expect(response.body.error).toBe(CROSS_ORIGIN);
        }
      });
    });

    it('lets machine clients without a session, and API-key calls, through without Origin', async () => {
      const user = await createUser(testApp.dataSource);
      await testApp.http
        .post('/api/users/login')
        .send({ email: user.email, password: user.password })
        .expect(200);
      const key = (
        await victim.agent
          .post('/api/dev/apikey')
          .set('Origin', TEST_ORIGIN)
          .send({ email: victim.user.email })
          .expect(200)
      ).body.api_key as string;
      await testApp.http.get('/api/stream/data').query({ api_key: key }).expect(200);
      await testApp.http.get('/api/stream/data').set('X-API-Key', key).expect(200);
    });

    it('accepts JSON only where JSON is expected: form-encoded and stray multipart bodies get 415', async () => {
      await expectUnchanged(testApp.dataSource, [victim.user.id], async () => {
        const form = await victim.agent
          .post('/api/access/remove')
          .set('Origin', TEST_ORIGIN)
          .type('form')
          .send(`assetId=${assetId}`);
        expect(form.status).toBe(415);
        expect(form.body.error).toBe('Send the request body as JSON (Content-Type: application/json).');
        const multipart = await victim.agent
          .post('/api/access/remove')
          .set('Origin', TEST_ORIGIN)
          .field('assetId', assetId);
        expect(multipart.status).toBe(415);
        const plain = await victim.agent
          .post('/api/access/remove')
          .set('Origin', TEST_ORIGIN)
          .set('Content-Type', 'text/plain')
          .send(JSON.stringify({ assetId }));
        expect(plain.status).toBe(415);
      });
    });

    it('refuses a login from another site (login CSRF) without starting a session', async () => {
      const user = await createUser(testApp.dataSource);
      const response = await testApp.http
        .post('/api/users/login')
        .set('Origin', 'https://evil.example')
        .send({ email: user.email, password: user.password })
        .expect(403);
      expect(response.body.error).toBe(CROSS_ORIGIN);
      expect(response.headers['set-cookie']).toBeUndefined();
    });
  });

  describe('rate limits', () => {
    it('refuses a client after 5 failures on an e-mail whatever its case and spacing, even for the right password', async () => {
      const user = await createUser(testApp.dataSource);
      const ip = clientIp();
      const variants = [
        user.email,
        user.email.toUpperCase(),
        ` ${user.email} `,
        user.email,
        `\t${user.email}`,
      ];
      for (const email of variants) {
        await testApp.http
          .post('/api/users/login')
          .set('Origin', TEST_ORIGIN)
          .set('X-Forwarded-For', ip)
          .send({ email, password: 'wrong-password' })
          .expect(401);
      }
      const locked = await testApp.http
        .post('/api/users/login')
        .set('Origin', TEST_ORIGIN)
        .set('X-Forwarded-For', ip)
        .send({ email: user.email, password: user.password })
        .expect(429);
      expect(locked.body.error).toBe(TOO_MANY_ATTEMPTS_MESSAGE);
      expect(locked.headers['set-cookie']).toBeUndefined();
    });

    it('counts failures per client address across e-mails, and a spoofed X-Forwarded-For prefix does not reset it', async () => {
      const realIp = clientIp();
      const limiter = testApp.app.get(RateLimiterService);
      const ipKey = `login-failures:ip:${realIp}`;
      for (let attempt = 0; attempt < 3; attempt++) {
        await testApp.http
          .post('/api/users/login')
          .set('Origin', TEST_ORIGIN)
          // The trusted proxy appends the real address; whatever the client wrote before it is ignored.
          .set('X-Forwarded-For', `203.0.113.${attempt}, ${realIp}`)
          .send({ email: `guess-${randomUUID()}@example.test`, password: 'guess' })
          .expect(401);
      }
      expect(await limiter.peek(ipKey, LOGIN_FAILURES_PER_IP)).toBe(3);
      // The rest of the allowance is spent directly: fifty real argon2 checks would only make this slow.
      for (let hit = 3; hit < LOGIN_FAILURES_PER_IP.limit; hit++)
        await limiter.hit(ipKey, LOGIN_FAILURES_PER_IP);
      const user = await createUser(testApp.dataSource);
      const refused = await testApp.http
        .post('/api/users/login')
        .set('Origin', TEST_ORIGIN)
        .set('X-Forwarded-For', `198.51.100.1, ${realIp}`)
        .send({ email: user.email, password: user.password })
        .expect(429);
      expect(refused.body.error).toBe(TOO_MANY_ATTEMPTS_MESSAGE);
      await testApp.http
        .post('/api/users/login')
        .set('Origin', TEST_ORIGIN)
        .set('X-Forwarded-For', `${realIp}, ${clientIp()}`)
        .send({ email: user.email, password: user.password })
        .expect(200);
    });

    it('limits likes per network address and post, spoofed X-Forwarded-For prefixes included', async () => {
      const post = await createPost(testApp.dataSource);
      const realIp = clientIp();
      // Without the visitor cookie every like is a new visitor: only the address limit holds them.
      const like = (prefix: string) =>
        testApp.http
          .post(`/api/blog/${post.slug}/like`)
          .set('Origin', TEST_ORIGIN)
          .set('X-Forwarded-For', `${prefix}, ${realIp}`);
      for (let attempt = 0; attempt < LIKE_NETWORK_LIMIT.limit; attempt++)
        await like(`192.0.2.${attempt + 1}`).expect(200);
      const refused = await like('192.0.2.99').expect(429);
      expect(refused.body.error).toBe(TOO_MANY_LIKES);
      const [row] = await testApp.dataSource.query(`SELECT likes FROM blog_posts WHERE id = $1`, [post.id]);
      expect(row.likes).toBe(LIKE_NETWORK_LIMIT.limit);
    });
  });
});

describe('abuse: rate limits without a trusted proxy', () => {
  let testApp: TestApp;

  beforeAll(async () => {
    testApp = await createTestApp();
  });
  afterAll(() => testApp.close());

  it('ignores X-Forwarded-For entirely, so rotating it cannot buy more likes', async () => {
    const post = await createPost(testApp.dataSource);
    for (let attempt = 0; attempt < LIKE_NETWORK_LIMIT.limit; attempt++)
      await testApp.http
        .post(`/api/blog/${post.slug}/like`)
        .set('Origin', TEST_ORIGIN)
        .set('X-Forwarded-For', `10.88.0.${attempt + 1}`)
        .expect(200);
    const refused = await testApp.http
      .post(`/api/blog/${post.slug}/like`)
      .set('Origin', TEST_ORIGIN)
      .set('X-Forwarded-For', '10.88.0.200')
      .expect(429);
    expect(refused.body.error).toBe(TOO_MANY_LIKES);
  });
});
