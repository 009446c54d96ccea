import { RateLimiterService } from '../../src/common/rate-limit/rate-limiter.service';
import { PERSONAL_ONLY } from '../../src/query/query-caller.guard';
import { uploadDataset } from '../factories/asset.factory';
import { createLoggedInUser } from '../factories/user.factory';
import { createTestApp, TEST_ORIGIN, TestApp } from '../support/test-app';
import { grantFor, organisationDataset, readableName, TWELVE_ROWS } from './holdings.support';
import { addMember, Agent, CALLERS, createOrganisation, createTeam, Person, Team } from './support';

const OWNERS_AND_ADMINS_ONLY = /owners and admins/i;

/**
 * An organisation's tokens act as the organisation: they read what it owns or holds and nothing
 * of their creator's, outlive the creator's membership and end at once on revoke or deletion.
 */
describe('organisations: API tokens of an organisation', () => {
  let testApp: TestApp;
  let team: Team;
  let publisher: Person;
  let heldId: string;
  let heldName: string;
  let ownedId: string;

  beforeAll(async () => {
    testApp = await createTestApp();
    team = await createTeam(testApp);
    publisher = await createLoggedInUser(testApp, { name: 'Publisher' });
    heldId = await uploadDataset(
      publisher.agent,
      { title: 'Held by the team', is_public: 'true' },
      TWELVE_ROWS,
    );
    heldName = await readableName(testApp, heldId);
    await grantFor(team.people.editor.agent, heldId, team.id).expect(200);
    ownedId = await organisationDataset(team, team.people.editor);
  });
  afterAll(() => testApp.close());

  const tokens = (id: string) => `/api/organisations/${id}/tokens`;
  const create = (agent: Agent, organisationId = team.id, scopes = ['stream']) =>
    agent.post(tokens(organisationId)).set('Origin', TEST_ORIGIN).send({ name: 'Power BI refresh', scopes });
  const revoke = (agent: Agent, tokenId: string, organisationId = team.id) =>
    agent.delete(`${tokens(organisationId)}/${tokenId}`).set('Origin', TEST_ORIGIN);
  const stream = (token: string, reference: string) =>
    testApp.http.get(`/api/stream/data/${reference}`).query({ api_key: token });
  const odata = (token: string, name: string) =>
    testApp.http.get(`/api/odata/${name}`).set('X-API-Key', token);
  const auditOf = (tokenId: string) =>
    testApp.dataSource.query(
      `SELECT type, user_id, organisation_id, detail FROM audit_events WHERE detail->>'token_id' = $1 ORDER BY id`,
      [tokenId],
    ) as Promise<
      Array<{ type: string; user_id: string; organisation_id: string; detail: Record<string, string> }>
    >;

  describe('who may list, create and revoke', () => {
    it.each(CALLERS)('as %s', async (caller) => {
      const { agent, user } = team.people[caller];
      const made = await create(agent);
      const listed = await agent.get(tokens(team.id));
      const existing = (await create(team.people.owner.agent).expect(201)).body.id as string;
      const revoked = await revoke(agent, existing);
      if (caller === 'owner' || caller === 'admin') {
        expect(made.status).toBe(201);
        expect(made.headers['cache-control']).toBe('no-store');
        expect(made.body.token).toMatch(/^dmt_/);
        expect(listed.status).toBe(200);
        expect(listed.body.map((token: { id: string }) => token.id)).toContain(made.body.id);
        expect(JSON.stringify(listed.body)).not.toContain(made.body.token);
        expect(revoked.status).toBe(200);
        const [created] = await auditOf(made.body.id);
        expect(created).toMatchObject({
          type: 'api_token_created',
          user_id: user.id,
          organisation_id: team.id,
          detail: { organisation_id: team.id },
        });
        const events = await auditOf(existing);
        expect(events.map((event) => [event.type, event.user_id, event.organisation_id])).toEqual([
          ['api_token_created', team.people.owner.user.id, team.id],
          ['api_token_revoked', user.id, team.id],
        ]);
      } else {
        const status = caller === 'outsider' ? 404 : 403;
        for (const response of [made, listed, revoked]) expect(response.status).toBe(status);
        if (status === 403) expect(made.body.message).toMatch(OWNERS_AND_ADMINS_ONLY);
        const [row] = await testApp.dataSource.query(`SELECT 1 FROM api_tokens WHERE id = $1`, [existing]);
        expect(row).toBeDefined();
      }
    });

    it("a user's own token list shows none of the organisation's, and the organisation's none of theirs", async () => {
      const orgToken = (await create(team.people.admin.agent).expect(201)).body.id;
      const personal = (
        await team.people.admin.agent
          .post('/api/users/tokens')
          .set('Origin', TEST_ORIGIN)
          .send({ name: 'Mine', scopes: ['stream'] })
          .expect(201)
      ).body.id;
      const mine = await team.people.admin.agent.get('/api/users/tokens').expect(200);
      expect(mine.body.map((token: { id: string }) => token.id)).not.toContain(orgToken);
      const theirs = await team.people.admin.agent.get(tokens(team.id)).expect(200);
      expect(theirs.body.map((token: { id: string }) => token.id)).not.toContain(personal);
      // Neither route revokes the other's token.
      await revoke(team.people.admin.agent, personal).expect(404);
      await team.people.admin.agent
        .delete(`/api/users/tokens/${orgToken}`)
        .set('Origin', TEST_ORIGIN)
        .expect(404);
    });

    it('a visitor, or a request with the organisation token itself, is not logged in (401)', async () => {
      const { token, id } = (await create(team.people.owner.agent).expect(201)).body;
      await testApp.http.get(tokens(team.id)).expect(401);
      await testApp.http.get(tokens(team.id)).set('X-API-Key', token).expect(401);
      await testApp.http
        .delete(`${tokens(team.id)}/${id}`)
        .set('Origin', TEST_ORIGIN)
        .set('X-API-Key', token)
        .expect(401);
    });

    it("a token of another organisation cannot be revoked through this one's route", async () => {
      const { owner, organisation } = await createOrganisation(testApp);
      await addMember(testApp, organisation.id, team.people.admin.user.id, 'admin');
      const other = (await create(owner.agent, organisation.id).expect(201)).body.id;
      await revoke(team.people.admin.agent, other).expect(404);
    });
  });

  describe('what the token reads', () => {
    let creator: Person;
    let token: string;
    let creatorPrivateId: string;

    beforeAll(async () => {
      creator = await createLoggedInUser(testApp, { name: 'Token maker' });
      await addMember(testApp, team.id, creator.user.id, 'admin');
      creatorPrivateId = await uploadDataset(creator.agent, { title: 'Mine alone', is_public: 'false' });
      token = (await create(creator.agent, team.id, ['stream', 'query']).expect(201)).body.token;
    });
    beforeEach(() => testApp.app.get(RateLimiterService).reset(`query:${team.id}`));

    it('streams and OData what the organisation holds and what it owns', async () => {
      expect((await stream(token, heldId).expect(200)).body).toHaveLength(12);
      expect((await stream(token, heldName).expect(200)).body).toHaveLength(12);
      expect((await odata(token, heldName).expect(200)).body.value).toHaveLength(12);
      expect((await stream(token, ownedId).expect(200)).body).toHaveLength(12);
    });

    it('reads nothing personal of its creator: their private dataset looks missing', async () => {
      await stream(token, creatorPrivateId).expect(404);
      await odata(token, await readableName(testApp, creatorPrivateId)).expect(404);
      const listed = await testApp.http.get('/api/stream/data').query({ api_key: token }).expect(200);
      expect(JSON.stringify(listed.body)).not.toContain(creatorPrivateId);
      expect(JSON.stringify(listed.body)).toContain(heldId);
    });

    it('runs SQL over what the organisation holds, but keeps no history and has no saved queries', async () => {
      const answer = await testApp.http
        .post('/api/query')
        .set('X-API-Key', token)
        .send({ sql: `SELECT count(*)::int AS n FROM ${heldName}` })
        .expect(200);
      expect(JSON.stringify(answer.body)).toContain('12');
      const history = await testApp.http.get('/api/query/history').set('X-API-Key', token).expect(403);
      expect(history.body.message).toBe(PERSONAL_ONLY);
      await testApp.http.get('/api/query/saved').set('X-API-Key', token).expect(403);
      const privateName = await readableName(testApp, creatorPrivateId);
      const refused = await testApp.http
        .post('/api/query')
        .set('X-API-Key', token)
        .send({ sql: `SELECT count(*) FROM ${privateName}` });
      expect(refused.status).toBeGreaterThanOrEqual(400);
    });

    it('keeps working after its creator leaves the organisation', async () => {
      await creator.agent.post(`/api/organisations/${team.id}/leave`).set('Origin', TEST_ORIGIN).expect(200);
      await stream(token, heldId).expect(200);
      expect((await odata(token, heldName).expect(200)).body.value).toHaveLength(12);
    });

    it('stops at once when revoked (401)', async () => {
      const made = (await create(team.people.owner.agent).expect(201)).body;
      await stream(made.token, heldId).expect(200);
      await revoke(team.people.admin.agent, made.id).expect(200);
      await stream(made.token, heldId).expect(401);
      await odata(made.token, heldName).expect(401);
    });

    it('stops at once when the organisation is deleted (401)', async () => {
      const { owner, organisation } = await createOrganisation(testApp);
      const made = (await create(owner.agent, organisation.id).expect(201)).body;
      await stream(made.token, heldId).expect(404);
      await owner.agent
        .delete(`/api/organisations/${organisation.id}`)
        .set('Origin', TEST_ORIGIN)
        .expect(200);
      await stream(made.token, heldId).expect(401);
      const [row] = await testApp.dataSource.query(`SELECT 1 FROM api_tokens WHERE id = $1`, [made.id]);
      expect(row).toBeUndefined();
    });

    it('a token with the stream scope only may not run SQL (403)', async () => {
      const made = (await create(team.people.owner.agent).expect(201)).body;
      await testApp.http
        .post('/api/query')
        .set('X-API-Key', made.token)
        .send({ sql: 'SELECT 1' })
        .expect(403);
    });
  });
});
