import { createUser, loginAs } from '../factories/user.factory';
import { LocalProvider, PROVIDER_CLIENT_SECRET, startLocalProvider } from '../support/oidc/local-provider';
import { createTestApp, TEST_ORIGIN, TestApp } from '../support/test-app';
import {
  addDomain,
  CALLBACK_URL,
  configure,
  domainTokenFor,
  sessionIdOf,
  ssoTeam,
  uniqueDomain,
  verifyDomain,
} from './sso.support';
import { Agent, addMember, createTeam, roleOf } from './support';

const STATE_INVALID =
  'This sign-in has been used or has expired (after 10 minutes). Please start single sign-on again.';
const REFUSED = 'Your organisation’s sign-in provider did not confirm who you are.';
const OUTSIDE_DOMAINS =
  'Your e-mail address is not at a domain this organisation has verified, so it cannot sign you in here.';

describe('organisations: single sign-on with OpenID Connect', () => {
  let testApp: TestApp;
  let provider: LocalProvider;

  beforeAll(async () => {
    testApp = await createTestApp();
    provider = await startLocalProvider(CALLBACK_URL);
  });
  afterAll(async () => {
    await provider?.stop();
    await testApp?.close();
  });

  /** Starts at the organisation's provider, signs in there as the account, and returns to the app. */
  async function signInThroughProvider(agent: Agent, slug: string, account: string) {
    const started = await agent.get(`/api/auth/sso/${slug}`).expect(302);
    expect(started.headers.location.startsWith(`${provider.issuer}/`)).toBe(true);
    const callback = await provider.signIn(started.headers.location, account);
    return { callback, answer: await agent.get(callback) };
  }

  async function signInEvents(userId: string) {
    return (await testApp.dataSource.query(
      `SELECT detail, organisation_id FROM audit_events WHERE user_id = $1 AND type = 'sign_in' ORDER BY id`,
      [userId],
    )) as Array<{ detail: Record<string, unknown>; organisation_id: string | null }>;
  }

  describe('settings', () => {
    it('seals the client secret, never answers or logs it, and records what changed', async () => {
      const team = await createTeam(testApp);
      const owner = team.people.owner.agent;
      const secret = 'very-secret-client-secret-42';
      const incomplete = await configure(owner, team.id, { issuer: provider.issuer }).expect(400);
      expect(incomplete.body.message).toBe(
        'To set up single sign-on, give the issuer, the client id and the client secret.',
      );

      const saved = await configure(owner, team.id, {
        issuer: provider.issuer,
        client_id: 'marketplace',
        client_secret: secret,
      }).expect(200);
      expect(saved.body).toEqual({
        issuer: provider.issuer,
        client_id: 'marketplace',
        client_secret_set: true,
        required: false,
        domains: [],
      });
      const read = await owner.get(`/api/organisations/${team.id}/sso`).expect(200);
      expect(read.body).toEqual(saved.body);
      const replaced = await configure(team.people.admin.agent, team.id, {
        client_secret: 'another-secret-43',
      });
      expect(replaced.status).toBe(200);
      for (const body of [saved.text, read.text, replaced.text]) {
        expect(body).not.toContain(secret);
        expect(body).not.toContain('another-secret-43');
      }

      const [stored] = await testApp.dataSource.query(
        `SELECT client_secret_sealed FROM organisation_sso WHERE organisation_id = $1`,
        [team.id],
      );
      expect(stored.client_secret_sealed).toMatch(/^v1\./);
      expect(stored.client_secret_sealed).not.toContain('another-secret-43');
      const events = await testApp.dataSource.query(
        `SELECT type, detail, detail::text AS text FROM audit_events WHERE organisation_id = $1 AND type LIKE 'organisation_sso%' ORDER BY id`,
        [team.id],
      );
      expect(events.map((event: { type: string; detail: unknown }) => [event.type, event.detail])).toEqual([
        [
          'organisation_sso_configured',
          { organisation_id: team.id, fields: ['issuer', 'client_id', 'client_secret'] },
        ],
        ['organisation_sso_configured', { organisation_id: team.id, fields: ['client_secret'] }],
      ]);
      for (const event of events) expect(event.text).not.toContain('secret-4');
    });

    it('validates the settings: issuer URL rules, empty client id, null fields', async () => {
      const team = await createTeam(testApp);
      const owner = team.people.owner.agent;
      const base = { client_id: 'marketplace', client_secret: 'x' };
      const cases: Array<[Record<string, unknown>, string]> = [
        [{ ...base, issuer: 'not a url' }, 'Issuer must be a URL'],
        [
          { ...base, issuer: 'http://login.example.com' },
          'Issuer must be an https URL (plain http only for 127.0.0.1 or localhost, and not in production).',
        ],
        [
          { ...base, issuer: 'https://10.1.2.3/' },
          'Issuer must be on a public address: private and loopback networks are not reachable from here.',
        ],
        [
          { ...base, issuer: 'https://login.example.com/?tenant=1' },
          'Issuer must be a plain URL, without user name, query or fragment.',
        ],
        [{ ...base, issuer: provider.issuer, client_id: '' }, 'Client id is required'],
        [{ issuer: null }, 'Issuer must be a URL'],
        [{ required: 'yes' }, 'Required must be true or false'],
      ];
      for (const [body, message] of cases) {
        const answer = await configure(owner, team.id, body).expect(400);
        expect([body, answer.body.message]).toEqual([body, expect.stringContaining(message)]);
      }
    });

    it('is for owners and admins: other members get 403, everyone else 404', async () => {
      const team = await createTeam(testApp);
      for (const role of ['editor', 'viewer'] as const) {
        const agent = team.people[role].agent;
        await agent.get(`/api/organisations/${team.id}/sso`).expect(403);
        await configure(agent, team.id, { client_secret: 'x' }).expect(403);
        await addDomain(agent, team.id, uniqueDomain()).expect(403);
      }
      const outsider = team.people.outsider.agent;
      await outsider.get(`/api/organisations/${team.id}/sso`).expect(404);
      await configure(outsider, team.id, { client_secret: 'x' }).expect(404);
      await addDomain(outsider, team.id, uniqueDomain()).expect(404);
      await team.people.admin.agent.get(`/api/organisations/${team.id}/sso`).expect(200);
    });
  });

  describe('domains', () => {
    it('mails a link to the named address at the domain; the link verifies it once', async () => {
      const team = await createTeam(testApp);
      const owner = team.people.owner.agent;
      const domain = uniqueDomain();
      const elsewhere = await addDomain(owner, team.id, domain, 'admin@example.com').expect(400);
      expect(elsewhere.body.message).toBe('The verification address must be at the domain itself.');
      await addDomain(owner, team.id, 'not a domain').expect(400);
      // Any mailbox would let one user of a shared mail provider claim all its addresses.
      const personal = await addDomain(owner, team.id, domain, `grace@${domain}`).expect(400);
      expect(personal.body.message).toBe(
        'The verification address must be one of the domain’s administrative addresses: admin@, administrator@, hostmaster@, postmaster@ or webmaster@.',
      );

      const added = await addDomain(owner, team.id, domain.toUpperCase(), `POSTMASTER@${domain}`).expect(201);
      expect(added.body).toMatchObject({
        domain,
        verification_email: `postmaster@${domain}`,
        verified: false,
      });
      const [mail] = (
        await testApp.http
          .get('/api/dev/outbox')
          .query({ email: `postmaster@${domain}` })
          .expect(200)
      ).body;
      expect(mail.subject).toBe(`Confirm ${domain} for Acme Analytics`);
      const token = await domainTokenFor(testApp, `postmaster@${domain}`);
      const verified = await verifyDomain(testApp, token).expect(200);
      expect(verified.body).toMatchObject({ id: added.body.id, domain, verified: true });
      const replay = await verifyDomain(testApp, token).expect(404);
      expect(replay.body.message).toBe('This verification link is invalid or has been used.');
      const settings = await owner.get(`/api/organisations/${team.id}/sso`).expect(200);
      expect(settings.body.domains).toEqual([verified.body]);
      const types = await testApp.dataSource.query(
        `SELECT type FROM audit_events WHERE organisation_id = $1 AND type LIKE 'organisation_sso_domain%' ORDER BY id`,
        [team.id],
      );
      expect(types.map((row: { type: string }) => row.type)).toEqual([
        'organisation_sso_domain_added',
        'organisation_sso_domain_verified',
      ]);
    });

    it('an expired link is refused (410); a verified domain is not added twice; removing one ends the requirement', async () => {
      const team = await ssoTeam(testApp, provider);
      const owner = team.people.owner.agent;
      const again = await addDomain(owner, team.id, team.domain).expect(409);
      expect(again.body.message).toBe('That domain has been added already.');

      const late = uniqueDomain();
      await addDomain(owner, team.id, late).expect(201);
      await testApp.dataSource.query(
        `UPDATE organisation_sso_domains SET token_expires_at = now() - interval '1 second' WHERE domain = $1`,
        [late],
      );
      const expired = await verifyDomain(testApp, await domainTokenFor(testApp, `postmaster@${late}`)).expect(
        410,
      );
      expect(expired.body.message).toBe('This verification link has expired. Please add the domain again.');

      await configure(owner, team.id, { required: true }).expect(200);
      const settings = await owner.get(`/api/organisations/${team.id}/sso`).expect(200);
      const verified = settings.body.domains.find(
        (domain: { domain: string }) => domain.domain === team.domain,
      );
      const domainPath = `/api/organisations/${team.id}/sso/domains/${verified.id}`;
      await team.people.editor.agent.delete(domainPath).set('Origin', TEST_ORIGIN).expect(403);
      await team.people.outsider.agent.delete(domainPath).set('Origin', TEST_ORIGIN).expect(404);
      await owner
        .delete(`/api/organisations/${team.id}/sso/domains/00000000-0000-4000-8000-000000000000`)
        .set('Origin', TEST_ORIGIN)
        .expect(404);
      const removed = await team.people.admin.agent.delete(domainPath).set('Origin', TEST_ORIGIN).expect(200);
      expect(removed.body.message).toBe('Domain removed.');
      const after = await owner.get(`/api/organisations/${team.id}/sso`).expect(200);
      expect(after.body.required).toBe(false);
      expect(after.body.domains.map((domain: { domain: string }) => domain.domain)).toEqual([late]);
      const [event] = await testApp.dataSource.query(
        `SELECT detail FROM audit_events WHERE organisation_id = $1 AND type = 'organisation_sso_domain_removed'`,
        [team.id],
      );
      expect(event.detail).toEqual({ organisation_id: team.id, domain_id: verified.id, domain: team.domain });
    });

    it('sends at most 20 verification mails per user an hour', async () => {
      const team = await createTeam(testApp);
      for (let sent = 0; sent < 20; sent += 1) {
        await addDomain(team.people.owner.agent, team.id, uniqueDomain()).expect(201);
      }
      const refused = await addDomain(team.people.owner.agent, team.id, uniqueDomain()).expect(429);
      expect(refused.body.message).toBe('Too many verification mails. Please try again later.');
      // Another admin has an allowance of their own.
      await addDomain(team.people.admin.agent, team.id, uniqueDomain()).expect(201);
    });

    it('a domain verified by one organisation cannot be claimed by another (409)', async () => {
      const first = await createTeam(testApp);
      const second = await createTeam(testApp);
      const domain = uniqueDomain();
      // Both claim it; the first to verify keeps it, and the second's link then fails.
      await addDomain(first.people.owner.agent, first.id, domain, `admin@${domain}`).expect(201);
      await addDomain(second.people.owner.agent, second.id, domain, `webmaster@${domain}`).expect(201);
      await verifyDomain(testApp, await domainTokenFor(testApp, `admin@${domain}`)).expect(200);
      const late = await verifyDomain(testApp, await domainTokenFor(testApp, `webmaster@${domain}`)).expect(
        409,
      );
      expect(late.body.message).toBe('That domain is verified by another organisation.');
      const again = await addDomain(second.people.owner.agent, second.id, domain).expect(409);
      expect(again.body.message).toBe('That domain is verified by another organisation.');
    });
  });

  describe('sign-in', () => {
    it('signs an existing member in like a password sign-in: new session id, audit event with method sso', async () => {
      const team = await ssoTeam(testApp, provider);
      const member = await createUser(testApp.dataSource, { email: `grace@${team.domain}` });
      await addMember(testApp, team.id, member.id, 'editor');
      const agent = testApp.agent();
      const started = await agent.get(`/api/auth/sso/${team.slug}`).expect(302);
      const before = sessionIdOf(started.headers['set-cookie']);
      const authorization = new URL(started.headers.location);
      expect(authorization.searchParams.get('code_challenge_method')).toBe('S256');
      expect(authorization.searchParams.get('client_id')).toBe('marketplace');
      expect(authorization.searchParams.get('redirect_uri')).toBe(CALLBACK_URL);
      for (const param of ['state', 'nonce', 'code_challenge'])
        expect(authorization.searchParams.get(param)).toBeTruthy();

      const callback = await provider.signIn(started.headers.location, member.email);
      const back = await agent.get(callback).expect(302);
      expect(back.headers.location).toBe('/');
      const after = sessionIdOf(back.headers['set-cookie']);
      expect(before).toBeDefined();
      expect(after).toBeDefined();
      expect(after).not.toBe(before);
      const me = await agent.get('/api/users/me').expect(200);
      expect(me.body).toMatchObject({ id: member.id, email: member.email });
      expect(await roleOf(testApp, team.id, member.id)).toBe('editor');
      expect(await signInEvents(member.id)).toEqual([
        { detail: { method: 'sso', organisation_id: team.id }, organisation_id: team.id },
      ]);
    });

    it('a new person from a verified domain gets an account and joins as viewer (start by e-mail)', async () => {
      const team = await ssoTeam(testApp, provider);
      const email = `newcomer@${team.domain}`;
      const agent = testApp.agent();
      const started = await agent
        .post('/api/auth/sso')
        .set('Origin', TEST_ORIGIN)
        .send({ email })
        .expect(200);
      const callback = await provider.signIn(started.body.authorization_url, email);
      await agent.get(callback).expect(302);
      const me = await agent.get('/api/users/me').expect(200);
      expect(me.body.email).toBe(email);
      expect(await roleOf(testApp, team.id, me.body.id)).toBe('viewer');
      const [user] = await testApp.dataSource.query(`SELECT email_verified_at FROM users WHERE id = $1`, [
        me.body.id,
      ]);
      expect(user.email_verified_at).not.toBeNull();
      const unknown = await testApp.http
        .post('/api/auth/sso')
        .set('Origin', TEST_ORIGIN)
        .send({ email: `someone@${uniqueDomain()}` })
        .expect(404);
      expect(unknown.body.message).toBe('Single sign-on is not set up for that e-mail address.');
    });

    it('an existing account that is not a member joins as viewer, its address now verified', async () => {
      const team = await ssoTeam(testApp, provider);
      const person = await createUser(testApp.dataSource, { email: `Hal@${team.domain}`, verified: false });
      const agent = testApp.agent();
      const { answer } = await signInThroughProvider(agent, team.slug, `hal@${team.domain}`);
      expect(answer.status).toBe(302);
      expect((await agent.get('/api/users/me').expect(200)).body.id).toBe(person.id);
      expect(await roleOf(testApp, team.id, person.id)).toBe('viewer');
      const [user] = await testApp.dataSource.query(`SELECT email_verified_at FROM users WHERE id = $1`, [
        person.id,
      ]);
      expect(user.email_verified_at).not.toBeNull();
      const joined = await testApp.dataSource.query(
        `SELECT detail FROM audit_events WHERE user_id = $1 AND type = 'organisation_member_joined'`,
        [person.id],
      );
      expect(joined).toEqual([{ detail: { organisation_id: team.id, role: 'viewer', method: 'sso' } }]);
    });

    it('refuses an address outside the verified domains, and one the provider has not verified', async () => {
      const team = await ssoTeam(testApp, provider);
      const stranger = `mallory@${uniqueDomain()}`;
      const outside = await signInThroughProvider(testApp.agent(), team.slug, stranger);
      expect(outside.answer.status).toBe(403);
      expect(outside.answer.body.message).toBe(OUTSIDE_DOMAINS);
      expect(await testApp.dataSource.query(`SELECT 1 FROM users WHERE email = $1`, [stranger])).toEqual([]);

      const unverified = await signInThroughProvider(
        testApp.agent(),
        team.slug,
        `unverified:eve@${team.domain}`,
      );
      expect(unverified.answer.status).toBe(403);
      expect(unverified.answer.body.message).toBe(
        'Your organisation’s sign-in provider did not confirm your e-mail address (email_verified).',
      );
    });

    it('refuses an id_token for another audience and an expired one', async () => {
      for (const clientId of ['marketplace-other-audience', 'marketplace-expired']) {
        const team = await ssoTeam(testApp, provider, clientId);
        const member = await createUser(testApp.dataSource, { email: `ann@${team.domain}` });
        await addMember(testApp, team.id, member.id, 'viewer');
        const agent = testApp.agent();
        const { answer } = await signInThroughProvider(agent, team.slug, member.email);
        expect([clientId, answer.status, answer.body.message]).toEqual([clientId, 401, REFUSED]);
        await agent.get('/api/users/me').expect(401);
        expect(await signInEvents(member.id)).toEqual([]);
      }
    });

    it('state is single-use: a replayed callback is refused with 400, as is one after 10 minutes', async () => {
      const team = await ssoTeam(testApp, provider);
      const member = await createUser(testApp.dataSource, { email: `bob@${team.domain}` });
      await addMember(testApp, team.id, member.id, 'viewer');
      const agent = testApp.agent();
      const { callback, answer } = await signInThroughProvider(agent, team.slug, member.email);
      expect(answer.status).toBe(302);
      const replay = await agent.get(callback).expect(400);
      expect(replay.body.message).toBe(STATE_INVALID);
      const elsewhere = await testApp.agent().get(callback).expect(400);
      expect(elsewhere.body.message).toBe(STATE_INVALID);

      const late = testApp.agent();
      const started = await late.get(`/api/auth/sso/${team.slug}`).expect(302);
      const state = new URL(started.headers.location).searchParams.get('state');
      // The sign-in began 11 minutes ago, as far as the session knows.
      await testApp.dataSource.query(
        `UPDATE session SET sess = jsonb_set(sess::jsonb, '{ssoPending,startedAt}', to_jsonb($2::bigint))::json
          WHERE sess->'ssoPending'->>'state' = $1`,
        [state, Date.now() - 11 * 60_000],
      );
      const lateCallback = await provider.signIn(started.headers.location, member.email);
      const expired = await late.get(lateCallback).expect(400);
      expect(expired.body.message).toBe(STATE_INVALID);
      await late.get('/api/users/me').expect(401);
    });

    it('a provider that cannot be reached answers 502; a malformed address 400', async () => {
      const team = await createTeam(testApp);
      // Port 1 on loopback: nothing listens there.
      await configure(team.people.owner.agent, team.id, {
        issuer: 'http://127.0.0.1:1',
        client_id: 'marketplace',
        client_secret: 'x',
      }).expect(200);
      const answer = await testApp.http.get(`/api/auth/sso/${team.slug}`).expect(502);
      expect(answer.body.message).toBe(
        'Your organisation’s sign-in provider cannot be reached. Please try again later.',
      );
      const malformed = await testApp.http
        .post('/api/auth/sso')
        .set('Origin', TEST_ORIGIN)
        .send({ email: 'not-an-address' })
        .expect(400);
      expect(malformed.body.message).toBe('Please enter a valid email address');
    });

    it('an organisation without SSO cannot start one', async () => {
      const team = await createTeam(testApp);
      const answer = await testApp.http.get(`/api/auth/sso/${team.slug}`).expect(404);
      expect(answer.body.message).toBe('Single sign-on is not set up for that organisation.');
    });
  });

  describe('requiring SSO', () => {
    it('members at the verified domains lose password sign-in; owners and running sessions keep theirs', async () => {
      const team = await createTeam(testApp);
      const owner = team.people.owner.agent;
      await configure(owner, team.id, {
        issuer: provider.issuer,
        client_id: 'marketplace',
        client_secret: PROVIDER_CLIENT_SECRET,
      }).expect(200);
      const early = await configure(owner, team.id, { required: true }).expect(400);
      expect(early.body.message).toBe(
        'Verify at least one e-mail domain and set up the provider before requiring single sign-on.',
      );
      const domain = uniqueDomain();
      await addDomain(owner, team.id, domain).expect(201);
      await verifyDomain(testApp, await domainTokenFor(testApp, `postmaster@${domain}`)).expect(200);

      const member = await createUser(testApp.dataSource, { email: `carol@${domain}` });
      await addMember(testApp, team.id, member.id, 'admin');
      const ownerAtDomain = await createUser(testApp.dataSource, { email: `olga@${domain}` });
      await addMember(testApp, team.id, ownerAtDomain.id, 'owner');
      const elsewhere = await createUser(testApp.dataSource, { email: `dave@${uniqueDomain()}` });
      await addMember(testApp, team.id, elsewhere.id, 'viewer');
      const runningSession = await loginAs(testApp, member);

      const required = await configure(owner, team.id, { required: true }).expect(200);
      expect(required.body.required).toBe(true);
      const refused = await testApp.http
        .post('/api/users/login')
        .set('Origin', TEST_ORIGIN)
        .send({ email: member.email, password: member.password })
        .expect(403);
      expect(refused.body.message).toBe(
        'Acme Analytics requires single sign-on (SSO) for your address. Please use “Sign in with SSO”.',
      );
      // A wrong password is told nothing about SSO.
      const wrong = await testApp.http
        .post('/api/users/login')
        .set('Origin', TEST_ORIGIN)
        .send({ email: member.email, password: 'wrong-password' })
        .expect(401);
      expect(wrong.body.message).toBe('Invalid email or password');
      await loginAs(testApp, ownerAtDomain);
      await loginAs(testApp, elsewhere);
      await runningSession.get('/api/users/me').expect(200);
      const { answer } = await signInThroughProvider(testApp.agent(), team.slug, member.email);
      expect(answer.status).toBe(302);

      await configure(owner, team.id, { required: false }).expect(200);
      await loginAs(testApp, member);
      const types = await testApp.dataSource.query(
        `SELECT type FROM audit_events WHERE organisation_id = $1 AND type IN ('organisation_sso_required', 'organisation_sso_optional') ORDER BY id`,
        [team.id],
      );
      expect(types.map((row: { type: string }) => row.type)).toEqual([
        'organisation_sso_required',
        'organisation_sso_optional',
      ]);
    });
  });
});
