import { RateLimiterService } from '../../src/common/rate-limit/rate-limiter.service';
import { NO_SUBSCRIPTIONS_FOR_ORGANISATIONS } from '../../src/access/grants.service';
import { QueryRoles } from '../../src/query/run/query-roles.service';
import { uploadDataset } from '../factories/asset.factory';
import { createLoggedInUser } from '../factories/user.factory';
import { setApiKey } from '../stream/stream.factory';
import { createTestApp, TEST_ORIGIN, TestApp } from '../support/test-app';
import {
  createHoldingTeam,
  EDITING,
  EDITORS_ONLY_ORGANISATION,
  formerLeaves,
  grantFor,
  HOLDING_CALLERS,
  HoldingCaller,
  HoldingTeam,
  organisationDataset,
  readableName,
  removeFor,
  TWELVE_ROWS,
} from './holdings.support';
import { Agent, Person } from './support';

/** Far more work than the test ever waits for: the membership change ends it. */
const ENDLESS = '100000000000';
const TAKEN = /your access to it ended/;

/**
 * What an organisation holds (got or bought for it by an editor and above) every member reads,
 * through every way in: grid, download, stream, OData and SQL. A member who leaves or is removed
 * loses it at once, a query running at that moment and their stream key included.
 */
describe('organisations: datasets an organisation holds', () => {
  let testApp: TestApp;
  let team: HoldingTeam;
  let publisher: Person;
  /** A free private-to-grant dataset of a stranger's, got for the team by its editor. */
  let heldId: string;
  let heldName: string;
  const keys = {} as Record<HoldingCaller, string>;

  beforeAll(async () => {
    testApp = await createTestApp({ QUERY_TIMEOUT_MS: '60000' });
    team = await createHoldingTeam(testApp);
    publisher = await createLoggedInUser(testApp, { name: 'Publisher' });
    heldId = await uploadDataset(
      publisher.agent,
      { title: 'Held by the team', is_public: 'true' },
      TWELVE_ROWS,
    );
    heldName = await readableName(testApp, heldId);
    await grantFor(team.people.editor.agent, heldId, team.id).expect(200);
    for (const caller of HOLDING_CALLERS)
      keys[caller] = await setApiKey(testApp.dataSource, team.people[caller].user.id);
    await formerLeaves(team);
  });
  afterAll(() => testApp.close());
  beforeEach(async () => {
    for (const caller of HOLDING_CALLERS)
      await testApp.app.get(RateLimiterService).reset(`query:${team.people[caller].user.id}`);
  });

  const member = (caller: HoldingCaller) => caller !== 'outsider' && caller !== 'former';
  const query = (agent: Agent, sql: string) =>
    agent.post('/api/query').set('Origin', TEST_ORIGIN).send({ sql });

  describe('getting a dataset for the organisation', () => {
    it.each(HOLDING_CALLERS)('as %s', async (caller) => {
      const id = await uploadDataset(publisher.agent, { is_public: 'true' });
      const response = await grantFor(team.people[caller].agent, id, team.id);
      expect(response.status).toBe(EDITING.includes(caller) ? 200 : caller === 'viewer' ? 403 : 404);
      if (response.status === 200) {
        expect(response.body).toEqual({
          granted: true,
          already: false,
          assetId: id,
          reason: 'free',
          organisationId: team.id,
        });
      } else {
        expect(response.body.message).toBe(
          caller === 'viewer' ? EDITORS_ONLY_ORGANISATION : 'Organisation not found',
        );
      }
      const held = await testApp.dataSource.query(`SELECT 1 FROM organisation_grants WHERE asset_id = $1`, [
        id,
      ]);
      expect(held).toHaveLength(response.status === 200 ? 1 : 0);
      // Nothing was granted to the caller in person (only the publisher holds it as uploader).
      const own = await testApp.dataSource.query(
        `SELECT 1 FROM access_grants WHERE asset_id = $1 AND reason <> 'owner'`,
        [id],
      );
      expect(own).toHaveLength(0);
    });

    it('counts the organisation as one subscriber, once', async () => {
      const id = await uploadDataset(publisher.agent, { is_public: 'true' });
      await grantFor(team.people.editor.agent, id, team.id).expect(200);
      const again = await grantFor(team.people.admin.agent, id, team.id).expect(200);
      expect(again.body).toMatchObject({ already: true, reason: 'free' });
      const detail = await publisher.agent.get(`/api/assets/${id}`).expect(200);
      expect(detail.body.subscriber_count).toBe(1);
    });

    it('buys a paid dataset for it: the order is the buyer’s, for the organisation, and members read it', async () => {
      const id = await uploadDataset(publisher.agent, { is_public: 'true', price: '12.50' }, TWELVE_ROWS);
      const bought = await grantFor(team.people.editor.agent, id, team.id).expect(200);
      expect(bought.body).toMatchObject({
        reason: 'purchase',
        organisationId: team.id,
        purchase: { status: 'paid' },
      });
      const [order] = await testApp.dataSource.query(
        `SELECT user_id, organisation_id, amount::float8 AS amount FROM purchases WHERE asset_id = $1`,
        [id],
      );
      expect(order).toEqual({ user_id: team.people.editor.user.id, organisation_id: team.id, amount: 12.5 });
      const rows = await team.people.viewer.agent.get(`/api/assets/${id}/data`).expect(200);
      expect(rows.body).toMatchObject({ sample: false, total: 12 });
      // The buyer did not buy it for themselves: getting it in person is a purchase of its own.
      const mine = await testApp.dataSource.query(
        `SELECT 1 FROM purchases WHERE asset_id = $1 AND user_id = $2 AND organisation_id IS NULL`,
        [id, team.people.editor.user.id],
      );
      expect(mine).toHaveLength(0);
    });

    it('refuses a dataset sold by the month for an organisation, taking nothing', async () => {
      const id = await uploadDataset(publisher.agent, { is_public: 'true', price: '9.00' }, TWELVE_ROWS);
      await publisher.agent
        .patch(`/api/assets/${id}`)
        .set('Origin', TEST_ORIGIN)
        .send({ billing_interval: 'month' })
        .expect(200);
      const refused = await grantFor(team.people.editor.agent, id, team.id).expect(400);
      expect(refused.body.message).toBe(NO_SUBSCRIPTIONS_FOR_ORGANISATIONS);
      const orders = await testApp.dataSource.query(`SELECT 1 FROM purchases WHERE asset_id = $1`, [id]);
      expect(orders).toHaveLength(0);
      await team.people.viewer.agent.get(`/api/assets/${id}/data`).expect(200, /"sample":true/);
    });

    it.each([[null], [42], ['x'.repeat(101)]])('refuses organisationId %p with 400', async (value) => {
      const id = await uploadDataset(publisher.agent, { is_public: 'true' });
      const response = await grantFor(team.people.editor.agent, id, value).expect(400);
      expect(JSON.stringify(response.body.message)).toMatch(/organisationId must be/);
      await removeFor(team.people.editor.agent, id, value).expect(400);
    });

    it('answers 404 for an organisationId that names no organisation', async () => {
      const id = await uploadDataset(publisher.agent, { is_public: 'true' });
      const response = await grantFor(team.people.editor.agent, id, 'not-an-organisation').expect(404);
      expect(response.body.message).toBe('Organisation not found');
    });

    it('answers 404 for a private dataset the caller cannot see, as for themselves', async () => {
      const id = await uploadDataset(publisher.agent, { is_public: 'false' });
      await grantFor(team.people.editor.agent, id, team.id).expect(404);
    });
  });

  describe('reading what it holds', () => {
    it.each(HOLDING_CALLERS)('in the grid as %s', async (caller) => {
      const response = await team.people[caller].agent.get(`/api/assets/${heldId}/data`).expect(200);
      // Everyone sees the public sample; members read every row.
      expect(response.body.sample).toBe(!member(caller));
      expect(response.body.rows).toHaveLength(member(caller) ? 12 : 10);
    });

    it.each(HOLDING_CALLERS)('as a download as %s', async (caller) => {
      const response = await team.people[caller].agent
        .get(`/api/downloads/${heldId}`)
        .query({ format: 'csv' });
      expect(response.status).toBe(member(caller) ? 200 : 404);
      if (member(caller)) expect(response.text.trim().split('\n')).toHaveLength(13);
    });

    it.each(HOLDING_CALLERS)('as a stream with their key as %s', async (caller) => {
      const response = await testApp.http.get(`/api/stream/data/${heldId}`).query({ api_key: keys[caller] });
      expect(response.status).toBe(member(caller) ? 200 : 404);
    });

    it.each(HOLDING_CALLERS)('over OData as %s', async (caller) => {
      const response = await testApp.http.get(`/api/odata/${heldName}`).set('X-API-Key', keys[caller]);
      expect(response.status).toBe(member(caller) ? 200 : 404);
      if (member(caller)) expect(response.body.value).toHaveLength(12);
    });

    it.each(HOLDING_CALLERS)('in SQL as %s', async (caller) => {
      const response = await query(team.people[caller].agent, `SELECT count(*) FROM ${heldName}`);
      if (member(caller)) {
        expect(response.status).toBe(200);
        expect(response.body.rows).toEqual([[12]]);
      } else {
        expect(response.status).toBe(400);
        expect(response.body.rows).toBeUndefined();
      }
    });

    it.each(HOLDING_CALLERS)('in the access list as %s', async (caller) => {
      const response = await team.people[caller].agent.get('/api/access/my').expect(200);
      expect(response.body.includes(heldId)).toBe(member(caller));
    });
  });

  describe('removing it from the organisation', () => {
    it.each(HOLDING_CALLERS)('as %s', async (caller) => {
      const id = await uploadDataset(publisher.agent, { is_public: 'true' }, TWELVE_ROWS);
      await grantFor(team.people.owner.agent, id, team.id).expect(200);
      const response = await removeFor(team.people[caller].agent, id, team.id);
      expect(response.status).toBe(EDITING.includes(caller) ? 200 : caller === 'viewer' ? 403 : 404);
      if (response.status === 200) expect(response.body).toEqual({ removed: true, assetId: id });
      const rows = await team.people.viewer.agent.get(`/api/assets/${id}/data`).expect(200);
      expect(rows.body.sample).toBe(response.status === 200);
      const detail = await publisher.agent.get(`/api/assets/${id}`).expect(200);
      expect(detail.body.subscriber_count).toBe(response.status === 200 ? 0 : 1);
    });
  });

  describe('a member who leaves or is removed loses it at once', () => {
    /** A fresh viewer of the team, with a stream key, who has read the held table in SQL. */
    async function newViewer() {
      const person = await createLoggedInUser(testApp, { name: 'Passing viewer' });
      await testApp.dataSource.query(
        `INSERT INTO organisation_memberships (organisation_id, user_id, role) VALUES ($1, $2, 'viewer')`,
        [team.id, person.user.id],
      );
      const key = await setApiKey(testApp.dataSource, person.user.id);
      const login = await testApp.app.get(QueryRoles).userRole(person.user.id);
      return { ...person, key, login };
    }

    const running = async (login: string, marker = ENDLESS): Promise<number> =>
      (
        await testApp.dataSource.query(
          `SELECT count(*)::int AS n FROM pg_stat_activity
            WHERE usename = $1 AND state = 'active' AND query LIKE '%' || $2 || '%'`,
          [login, marker],
        )
      )[0].n;

    const waitForRunning = async (login: string, marker = ENDLESS) => {
      const deadline = Date.now() + 20_000;
      while ((await running(login, marker)) === 0) {
        if (Date.now() > deadline) throw new Error('the query did not start');
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    };

    const endless = () => `SELECT count(*) FROM ${heldName}, generate_series(1, ${ENDLESS}) g`;

    it.each([
      ['leaving', (viewer: Person) => viewer.agent.post(`/api/organisations/${team.id}/leave`)],
      [
        'being removed by an admin',
        (viewer: Person) =>
          team.people.admin.agent.delete(`/api/organisations/${team.id}/members/${viewer.user.id}`),
      ],
    ])('by %s: a running query ends, and the next cannot name the table', async (_how, change) => {
      const viewer = await newViewer();
      const answer = query(viewer.agent, endless()).then((response) => response);
      await waitForRunning(viewer.login);
      await change(viewer).set('Origin', TEST_ORIGIN).expect(200);
      const response = await answer;
      expect(response.status).toBe(409);
      expect(response.body.message).toMatch(TAKEN);
      expect(await running(viewer.login)).toBe(0);
      // Their database role reads it no more already, before any next query of theirs.
      const [grant] = await testApp.dataSource.query(
        `SELECT has_table_privilege($1, format('data.%I', table_name), 'SELECT') AS reads
           FROM assets WHERE id = $2`,
        [viewer.login, heldId],
      );
      expect(grant.reads).toBe(false);
      const next = await query(viewer.agent, `SELECT count(*) FROM ${heldName}`);
      expect(next.status).toBe(400);
    });

    it('a query on the member’s own tables runs on when they leave', async () => {
      const viewer = await newViewer();
      const ownId = await uploadDataset(viewer.agent, { is_public: 'false' });
      const own = await readableName(testApp, ownId);
      await query(viewer.agent, `SELECT count(*) FROM ${heldName}`).expect(200);
      // Long enough to be seen running when the viewer leaves; it then finishes on its own.
      const answer = query(viewer.agent, `SELECT count(*) FROM ${own}, generate_series(1, 20000001) g`).then(
        (response) => response,
      );
      await waitForRunning(viewer.login, '20000001');
      await viewer.agent.post(`/api/organisations/${team.id}/leave`).set('Origin', TEST_ORIGIN).expect(200);
      const response = await answer;
      expect(response.status).toBe(200);
      expect(response.body.rows).toEqual([[60000003]]);
    });

    it('their stream key, OData, download and grid read it no more', async () => {
      const viewer = await newViewer();
      await testApp.http.get(`/api/stream/data/${heldId}`).query({ api_key: viewer.key }).expect(200);
      await testApp.http.get(`/api/odata/${heldName}`).set('X-API-Key', viewer.key).expect(200);
      await team.people.owner.agent
        .delete(`/api/organisations/${team.id}/members/${viewer.user.id}`)
        .set('Origin', TEST_ORIGIN)
        .expect(200);
      await testApp.http.get(`/api/stream/data/${heldId}`).query({ api_key: viewer.key }).expect(404);
      await testApp.http.get(`/api/stream/data/${heldName}`).set('X-API-Key', viewer.key).expect(404);
      await testApp.http.get(`/api/odata/${heldName}`).set('X-API-Key', viewer.key).expect(404);
      await viewer.agent.get(`/api/downloads/${heldId}`).expect(404);
      const rows = await viewer.agent.get(`/api/assets/${heldId}/data`).expect(200);
      expect(rows.body.sample).toBe(true);
    });

    it('and so does everyone when the organisation is deleted', async () => {
      const own = await createHoldingTeam(testApp);
      const id = await uploadDataset(publisher.agent, { is_public: 'true' }, TWELVE_ROWS);
      await grantFor(own.people.editor.agent, id, own.id).expect(200);
      const key = await setApiKey(testApp.dataSource, own.people.viewer.user.id);
      await testApp.http.get(`/api/stream/data/${id}`).query({ api_key: key }).expect(200);
      await own.people.owner.agent
        .delete(`/api/organisations/${own.id}`)
        .set('Origin', TEST_ORIGIN)
        .expect(200);
      await testApp.http.get(`/api/stream/data/${id}`).query({ api_key: key }).expect(404);
      const detail = await publisher.agent.get(`/api/assets/${id}`).expect(200);
      expect(detail.body.subscriber_count).toBe(0);
    });
  });

  describe('a dataset the organisation owns, read by its members', () => {
    it('in SQL by a viewer, and not after they leave', async () => {
      const id = await organisationDataset(team, team.people.editor);
      const name = await readableName(testApp, id);
      const viewer = await createLoggedInUser(testApp);
      await testApp.dataSource.query(
        `INSERT INTO organisation_memberships (organisation_id, user_id, role) VALUES ($1, $2, 'viewer')`,
        [team.id, viewer.user.id],
      );
      expect((await query(viewer.agent, `SELECT count(*) FROM ${name}`).expect(200)).body.rows).toEqual([
        [12],
      ]);
      await viewer.agent.post(`/api/organisations/${team.id}/leave`).set('Origin', TEST_ORIGIN).expect(200);
      await query(viewer.agent, `SELECT count(*) FROM ${name}`).expect(400);
    });
  });
});
