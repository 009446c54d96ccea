import { uploadDataset } from '../factories/asset.factory';
import { createLoggedInUser } from '../factories/user.factory';
import { createTestApp, TEST_ORIGIN, TestApp } from '../support/test-app';
import {
  createHoldingTeam,
  DATASET_OWNER_ONLY,
  EDITING,
  EDITORS_ONLY_DATASET,
  EDITORS_ONLY_ORGANISATION,
  formerLeaves,
  grantFor,
  HOLDING_CALLERS,
  HoldingCaller,
  HoldingTeam,
  moveDataset,
  organisationDataset,
  TWELVE_ROWS,
} from './holdings.support';
import { createOrganisation, eventsOf } from './support';

/** What each caller is answered: members read, editors and above change, the rest see nothing. */
function expected(caller: HoldingCaller, change: boolean): number {
  if (caller === 'outsider' || caller === 'former') return 404;
  if (!change) return 200;
  return EDITING.includes(caller) ? 200 : 403;
}

/**
 * Datasets that belong to an organisation: its editors, admins and owners act as their owner,
 * viewers read them in full, and nobody else (a former member included, even the one who
 * uploaded it) learns they exist.
 */
describe('organisations: datasets an organisation owns', () => {
  let testApp: TestApp;
  let team: HoldingTeam;
  let datasetId: string;
  /** Uploaded and moved in by the former member before they left. */
  let formerUploadId: string;

  beforeAll(async () => {
    testApp = await createTestApp();
    team = await createHoldingTeam(testApp);
    datasetId = await organisationDataset(team, team.people.editor, { title: 'Team revenue' });
    formerUploadId = await organisationDataset(team, team.people.former, { title: 'Left behind' });
    await formerLeaves(team);
  });
  afterAll(() => testApp.close());

  describe('reading', () => {
    it.each(HOLDING_CALLERS)('the details as %s', async (caller) => {
      const response = await team.people[caller].agent.get(`/api/assets/${datasetId}`);
      expect(response.status).toBe(expected(caller, false));
      if (response.status !== 200) {
        expect(response.body.message).toBe('Dataset not found');
        return;
      }
      expect(response.body).toMatchObject({
        organisation: { id: team.id, name: 'Acme Analytics', slug: team.slug },
        owned: EDITING.includes(caller),
        has_access: true,
      });
    });

    it.each(HOLDING_CALLERS)('every row in the grid as %s', async (caller) => {
      const response = await team.people[caller].agent.get(`/api/assets/${datasetId}/data`);
      expect(response.status).toBe(expected(caller, false));
      if (response.status === 200) {
        expect(response.body.sample).toBe(false);
        expect(response.body.rows).toHaveLength(12);
      }
    });

    it('lists it under "owned" for editors and above, and under "accessible" for viewers', async () => {
      const owned = async (caller: HoldingCaller, scope: string) =>
        (await team.people[caller].agent.get('/api/assets').query({ scope }).expect(200)).body.map(
          (item: { id: string }) => item.id,
        );
      expect(await owned('admin', 'owned')).toContain(datasetId);
      expect(await owned('viewer', 'owned')).not.toContain(datasetId);
      expect(await owned('viewer', 'accessible')).toContain(datasetId);
      expect(await owned('former', 'accessible')).not.toContain(datasetId);
      expect(await owned('outsider', 'all')).not.toContain(datasetId);
    });

    it('shows the organisation as publisher in the catalogue', async () => {
      const response = await team.people.viewer.agent
        .get('/api/assets')
        .query({ scope: 'accessible' })
        .expect(200);
      const item = response.body.find((candidate: { id: string }) => candidate.id === datasetId);
      expect(item.organisation).toEqual({ id: team.id, name: 'Acme Analytics', slug: team.slug });
      const personal = await uploadDataset(team.people.viewer.agent, { is_public: 'false' });
      const mine = await team.people.viewer.agent.get(`/api/assets/${personal}`).expect(200);
      expect(mine.body.organisation).toBeNull();
    });

    it('is gone for its uploader once they left the organisation, their upload grant notwithstanding', async () => {
      await team.people.former.agent.get(`/api/assets/${formerUploadId}`).expect(404);
      await team.people.former.agent.get(`/api/assets/${formerUploadId}/data`).expect(404);
      const mine = await team.people.former.agent.get('/api/access/my').expect(200);
      expect(mine.body).not.toContain(formerUploadId);
      await team.people.viewer.agent.get(`/api/assets/${formerUploadId}`).expect(200);
    });
  });

  describe('changing', () => {
    it.each(HOLDING_CALLERS)('its description as %s', async (caller) => {
      const id = await organisationDataset(team, team.people.owner);
      const response = await team.people[caller].agent
        .patch(`/api/assets/${id}`)
        .set('Origin', TEST_ORIGIN)
        .send({ title: `Renamed by ${caller}`, is_public: true });
      expect(response.status).toBe(expected(caller, true));
      if (response.status === 403) expect(response.body.message).toBe(EDITORS_ONLY_DATASET);
      const [row] = await testApp.dataSource.query(`SELECT title, is_public FROM assets WHERE id = $1`, [id]);
      expect(row.title === `Renamed by ${caller}`).toBe(response.status === 200);
      expect(row.is_public).toBe(response.status === 200);
    });

    it.each(HOLDING_CALLERS)('its rows (replace) as %s', async (caller) => {
      const id = await organisationDataset(team, team.people.owner);
      const response = await team.people[caller].agent
        .post(`/api/assets/${id}/refresh`)
        .set('Origin', TEST_ORIGIN)
        .field('mode', 'replace')
        .attach('file', Buffer.from('name,amount\nonly,1\n'), 'next.csv');
      expect(response.status).toBe(expected(caller, true));
      if (response.status === 403) expect(response.body.message).toBe(EDITORS_ONLY_DATASET);
      const [row] = await testApp.dataSource.query(`SELECT row_count::int AS n FROM assets WHERE id = $1`, [
        id,
      ]);
      expect(row.n).toBe(response.status === 200 ? 1 : 12);
    });

    it.each(HOLDING_CALLERS)('deleting it as %s', async (caller) => {
      const id = await organisationDataset(team, team.people.owner);
      const response = await team.people[caller].agent.delete(`/api/assets/${id}`).set('Origin', TEST_ORIGIN);
      expect(response.status).toBe(expected(caller, true));
      if (response.status === 403) expect(response.body.message).toBe(EDITORS_ONLY_DATASET);
      const rows = await testApp.dataSource.query(`SELECT 1 FROM assets WHERE id = $1`, [id]);
      expect(rows).toHaveLength(response.status === 200 ? 0 : 1);
    });

    it('refuses a stranger who sees it in the catalogue with the organisation’s words', async () => {
      const id = await organisationDataset(team, team.people.owner, { is_public: 'true' });
      await team.people.outsider.agent.get(`/api/assets/${id}`).expect(200);
      const response = await team.people.outsider.agent
        .patch(`/api/assets/${id}`)
        .set('Origin', TEST_ORIGIN)
        .send({ title: 'Mine now' })
        .expect(403);
      expect(response.body.message).toBe(EDITORS_ONLY_DATASET);
    });

    it('follows a role change at once: an editor made viewer can no longer change it', async () => {
      const id = await organisationDataset(team, team.people.owner);
      const editor = await createLoggedInUser(testApp);
      await testApp.dataSource.query(
        `INSERT INTO organisation_memberships (organisation_id, user_id, role) VALUES ($1, $2, 'editor')`,
        [team.id, editor.user.id],
      );
      const rename = () =>
        editor.agent.patch(`/api/assets/${id}`).set('Origin', TEST_ORIGIN).send({ title: 'By the editor' });
      await rename().expect(200);
      await team.people.owner.agent
        .patch(`/api/organisations/${team.id}/members/${editor.user.id}`)
        .set('Origin', TEST_ORIGIN)
        .send({ role: 'viewer' })
        .expect(200);
      expect((await rename().expect(403)).body.message).toBe(EDITORS_ONLY_DATASET);
      await editor.agent.get(`/api/assets/${id}/data`).expect(200);
    });
  });

  describe('moving a personal dataset into the organisation', () => {
    it('keeps its rows, versions, subscribers and history', async () => {
      const { editor } = team.people;
      const id = await uploadDataset(editor.agent, { title: 'Moving house' }, TWELVE_ROWS);
      const subscriber = await createLoggedInUser(testApp);
      await grantFor(subscriber.agent, id).expect(200);
      const before = (await editor.agent.get(`/api/assets/${id}`).expect(200)).body;
      const moved = await moveDataset(editor.agent, id, team.id).expect(200);
      expect(moved.body).toMatchObject({
        id,
        organisation: { id: team.id, name: 'Acme Analytics', slug: team.slug },
        owned: true,
        subscriber_count: 1,
        readable_name: before.readable_name,
        row_count: 12,
      });
      expect(moved.body.versions).toEqual(before.versions);
      expect(await eventsOf(testApp, editor.user.id, 'dataset_moved_to_organisation')).toContainEqual({
        type: 'dataset_moved_to_organisation',
        detail: { dataset_id: id, organisation_id: team.id },
      });
      // The subscriber keeps reading every row.
      const rows = await subscriber.agent.get(`/api/assets/${id}/data`).expect(200);
      expect(rows.body).toMatchObject({ sample: false, total: 12 });
      // Now every editor manages it.
      await team.people.admin.agent
        .patch(`/api/assets/${id}`)
        .set('Origin', TEST_ORIGIN)
        .send({ description: 'Ours' })
        .expect(200);
    });

    it.each(['owner', 'admin', 'editor'] as const)('may be done by its owner who is a %s', async (role) => {
      const id = await uploadDataset(team.people[role].agent, { is_public: 'false' });
      await moveDataset(team.people[role].agent, id, team.id).expect(200);
    });

    it('is refused to its owner who is only a viewer (403), and leaves it personal', async () => {
      const id = await uploadDataset(team.people.viewer.agent, { is_public: 'false' });
      const response = await moveDataset(team.people.viewer.agent, id, team.id).expect(403);
      expect(response.body.message).toBe(EDITORS_ONLY_ORGANISATION);
      expect(await eventsOf(testApp, team.people.viewer.user.id, 'dataset_moved_to_organisation')).toEqual(
        [],
      );
      const [row] = await testApp.dataSource.query(`SELECT organisation_id FROM assets WHERE id = $1`, [id]);
      expect(row.organisation_id).toBeNull();
    });

    it('is refused into an organisation the owner is not a member of (404), or has left', async () => {
      const { organisation: theirs } = await createOrganisation(testApp);
      const id = await uploadDataset(team.people.editor.agent, { is_public: 'false' });
      const response = await moveDataset(team.people.editor.agent, id, theirs.id).expect(404);
      expect(response.body.message).toBe('Organisation not found');
      const formers = await uploadDataset(team.people.former.agent, { is_public: 'false' });
      await moveDataset(team.people.former.agent, formers, team.id).expect(404);
    });

    it('is refused for someone else’s dataset: 403 when it is public, 404 when private', async () => {
      const publicId = await uploadDataset(team.people.outsider.agent, { is_public: 'true' });
      const privateId = await uploadDataset(team.people.outsider.agent, { is_public: 'false' });
      const response = await moveDataset(team.people.editor.agent, publicId, team.id).expect(403);
      expect(response.body.message).toBe(DATASET_OWNER_ONLY);
      await moveDataset(team.people.editor.agent, privateId, team.id).expect(404);
    });

    it('is refused for a dataset that belongs to an organisation already (409)', async () => {
      const { organisation: second } = await createOrganisation(testApp, team.people.editor);
      const response = await moveDataset(team.people.editor.agent, datasetId, second.id).expect(409);
      expect(response.body.message).toBe('This dataset belongs to an organisation already');
    });

    it.each([[null], ['not-a-uuid'], [42], [undefined]])(
      'refuses organisation_id %p (400)',
      async (value) => {
        const id = await uploadDataset(team.people.editor.agent, { is_public: 'false' });
        const response = await moveDataset(team.people.editor.agent, id, value).expect(400);
        expect(JSON.stringify(response.body.message)).toContain('organisation_id must be an organisation id');
      },
    );
  });

  describe('deleting the account of its uploader', () => {
    it('leaves a dataset moved into an organisation with the organisation', async () => {
      const uploader = await createLoggedInUser(testApp);
      await testApp.dataSource.query(
        `INSERT INTO organisation_memberships (organisation_id, user_id, role) VALUES ($1, $2, 'editor')`,
        [team.id, uploader.user.id],
      );
      const id = await organisationDataset(team, uploader);
      const personal = await uploadDataset(uploader.agent, { is_public: 'false' });
      await uploader.agent
        .delete('/api/users/me')
        .set('Origin', TEST_ORIGIN)
        .send({ password: uploader.user.password })
        .expect(200);
      const kept = await team.people.viewer.agent.get(`/api/assets/${id}/data`).expect(200);
      expect(kept.body).toMatchObject({ sample: false, total: 12 });
      await team.people.editor.agent
        .patch(`/api/assets/${id}`)
        .set('Origin', TEST_ORIGIN)
        .send({ title: 'Still ours' })
        .expect(200);
      expect(await testApp.dataSource.query(`SELECT 1 FROM assets WHERE id = $1`, [personal])).toHaveLength(
        0,
      );
    });

    it('deletes the datasets of an organisation the account was alone in, with it', async () => {
      const own = await createOrganisation(testApp);
      const id = await uploadDataset(own.owner.agent, { is_public: 'false' });
      await moveDataset(own.owner.agent, id, own.organisation.id).expect(200);
      await own.owner.agent
        .delete('/api/users/me')
        .set('Origin', TEST_ORIGIN)
        .send({ password: own.owner.user.password })
        .expect(200);
      expect(await testApp.dataSource.query(`SELECT 1 FROM assets WHERE id = $1`, [id])).toHaveLength(0);
      expect(
        await testApp.dataSource.query(`SELECT 1 FROM organisations WHERE id = $1`, [own.organisation.id]),
      ).toHaveLength(0);
    });
  });

  describe('the organisation itself', () => {
    it('cannot be deleted while it owns datasets (409), and can once they are gone', async () => {
      const own = await createOrganisation(testApp);
      const id = await uploadDataset(own.owner.agent, { is_public: 'false' });
      await moveDataset(own.owner.agent, id, own.organisation.id).expect(200);
      const refused = await own.owner.agent
        .delete(`/api/organisations/${own.organisation.id}`)
        .set('Origin', TEST_ORIGIN)
        .expect(409);
      expect(refused.body.message).toMatch(/still owns datasets/);
      await own.owner.agent.delete(`/api/assets/${id}`).set('Origin', TEST_ORIGIN).expect(200);
      await own.owner.agent
        .delete(`/api/organisations/${own.organisation.id}`)
        .set('Origin', TEST_ORIGIN)
        .expect(200);
    });
  });
});
