import { createLoggedInUser } from '../factories/user.factory';
import { createTestApp, TEST_ORIGIN, TestApp } from '../support/test-app';
import {
  addMember,
  CALLERS,
  Caller,
  createOrganisation,
  createTeam,
  eventsOf,
  Role,
  roleOf,
  ROLES,
} from './support';

const LAST_OWNER =
  'You are the last owner of this organisation. Make another member an owner first, or delete the organisation.';
const ONLY_OWNERS_MANAGE_OWNERS = 'Only an owner may make someone an owner or change an owner’s role.';

describe('organisations: members, roles, removal and leaving', () => {
  let testApp: TestApp;

  beforeAll(async () => {
    testApp = await createTestApp();
  });
  afterAll(() => testApp.close());

  describe('listing members', () => {
    it.each(CALLERS)('as %s', async (caller) => {
      const team = await createTeam(testApp);
      const response = await team.people[caller].agent.get(`/api/organisations/${team.id}/members`);
      if (caller === 'outsider') {
        expect(response.status).toBe(404);
        expect(response.body.message).toBe('Organisation not found');
        return;
      }
      expect(response.status).toBe(200);
      // Owners first, then admins, editors and viewers.
      expect(response.body.map((member: { role: string }) => member.role)).toEqual([...ROLES]);
      expect(response.body[0]).toEqual({
        user_id: team.people.owner.user.id,
        name: team.people.owner.user.name,
        email: team.people.owner.user.email,
        role: 'owner',
        joined_at: expect.any(String),
      });
    });

    it('lists the caller’s organisations only', async () => {
      const team = await createTeam(testApp);
      const mine = await team.people.viewer.agent.get('/api/organisations').expect(200);
      expect(mine.body).toEqual([expect.objectContaining({ id: team.id, my_role: 'viewer' })]);
      const theirs = await team.people.outsider.agent.get('/api/organisations').expect(200);
      expect(theirs.body).toEqual([]);
    });
  });

  describe('changing a role', () => {
    /** Who may give whom which role: [caller, target's role, new role] → status. */
    const cases: Array<[Caller, Role, Role, number]> = [
      ['owner', 'viewer', 'editor', 200],
      ['owner', 'editor', 'owner', 200],
      ['owner', 'admin', 'viewer', 200],
      ['admin', 'viewer', 'admin', 200],
      ['admin', 'editor', 'viewer', 200],
      ['admin', 'viewer', 'owner', 403],
      ['admin', 'owner', 'viewer', 403],
      ['editor', 'viewer', 'editor', 403],
      ['viewer', 'editor', 'viewer', 403],
      ['outsider', 'viewer', 'editor', 404],
    ];

    it.each(cases)('%s changing a %s to %s answers %d', async (caller, targetRole, newRole, status) => {
      const team = await createTeam(testApp);
      const target = team.people[targetRole];
      const response = await team.people[caller].agent
        .patch(`/api/organisations/${team.id}/members/${target.user.id}`)
        .set('Origin', TEST_ORIGIN)
        .send({ role: newRole });
      expect(response.status).toBe(status);
      expect(await roleOf(testApp, team.id, target.user.id)).toBe(status === 200 ? newRole : targetRole);
      if (status === 200) {
        expect(response.body).toMatchObject({ user_id: target.user.id, role: newRole });
        expect(
          await eventsOf(testApp, team.people[caller].user.id, 'organisation_member_role_changed'),
        ).toEqual([
          {
            type: 'organisation_member_role_changed',
            detail: {
              organisation_id: team.id,
              member_id: target.user.id,
              role: newRole,
              previous_role: targetRole,
            },
          },
        ]);
      }
      if (caller === 'admin' && status === 403) expect(response.body.message).toBe(ONLY_OWNERS_MANAGE_OWNERS);
    });

    it('keeps one owner: the last owner cannot step down, one of two can', async () => {
      const team = await createTeam(testApp);
      const { owner, admin } = team.people;
      const refused = await owner.agent
        .patch(`/api/organisations/${team.id}/members/${owner.user.id}`)
        .set('Origin', TEST_ORIGIN)
        .send({ role: 'admin' })
        .expect(409);
      expect(refused.body.message).toBe(
        'This organisation needs at least one owner. Make another member an owner first.',
      );
      await owner.agent
        .patch(`/api/organisations/${team.id}/members/${admin.user.id}`)
        .set('Origin', TEST_ORIGIN)
        .send({ role: 'owner' })
        .expect(200);
      await owner.agent
        .patch(`/api/organisations/${team.id}/members/${owner.user.id}`)
        .set('Origin', TEST_ORIGIN)
        .send({ role: 'viewer' })
        .expect(200);
      expect(await roleOf(testApp, team.id, owner.user.id)).toBe('viewer');
    });

    it('says which roles exist, and 404 for someone who is not a member', async () => {
      const team = await createTeam(testApp);
      const bad = await team.people.owner.agent
        .patch(`/api/organisations/${team.id}/members/${team.people.viewer.user.id}`)
        .set('Origin', TEST_ORIGIN)
        .send({ role: 'superuser' })
        .expect(400);
      expect(bad.body.errors).toEqual(['Role must be one of: owner, admin, editor, viewer']);
      const stranger = await team.people.owner.agent
        .patch(`/api/organisations/${team.id}/members/${team.people.outsider.user.id}`)
        .set('Origin', TEST_ORIGIN)
        .send({ role: 'viewer' })
        .expect(404);
      expect(stranger.body.message).toBe('Member not found');
    });
  });

  describe('removing a member', () => {
    const cases: Array<[Caller, Role, number]> = [
      ['owner', 'admin', 200],
      ['owner', 'viewer', 200],
      ['admin', 'editor', 200],
      ['admin', 'viewer', 200],
      ['admin', 'owner', 403],
      ['editor', 'viewer', 403],
      ['viewer', 'editor', 403],
      ['outsider', 'viewer', 404],
    ];

    it.each(cases)('%s removing a %s answers %d', async (caller, targetRole, status) => {
      const team = await createTeam(testApp);
      const target = team.people[targetRole];
      const response = await team.people[caller].agent
        .delete(`/api/organisations/${team.id}/members/${target.user.id}`)
        .set('Origin', TEST_ORIGIN);
      expect(response.status).toBe(status);
      expect(await roleOf(testApp, team.id, target.user.id)).toBe(status === 200 ? null : targetRole);
      if (status === 200) {
        expect(await eventsOf(testApp, team.people[caller].user.id, 'organisation_member_removed')).toEqual([
          {
            type: 'organisation_member_removed',
            detail: { organisation_id: team.id, member_id: target.user.id, role: targetRole },
          },
        ]);
        // The removed member no longer sees the organisation.
        await target.agent.get(`/api/organisations/${team.id}`).expect(404);
      }
    });

    it('lets an owner remove another owner', async () => {
      const team = await createTeam(testApp);
      const second = await createLoggedInUser(testApp);
      await addMember(testApp, team.id, second.user.id, 'owner');
      await team.people.owner.agent
        .delete(`/api/organisations/${team.id}/members/${second.user.id}`)
        .set('Origin', TEST_ORIGIN)
        .expect(200);
      expect(await roleOf(testApp, team.id, second.user.id)).toBeNull();
    });
  });

  describe('leaving', () => {
    it.each(['admin', 'editor', 'viewer'] as const)('a %s leaves and the log says so', async (role) => {
      const team = await createTeam(testApp);
      const person = team.people[role];
      const response = await person.agent
        .post(`/api/organisations/${team.id}/leave`)
        .set('Origin', TEST_ORIGIN)
        .expect(200);
      expect(response.body.message).toBe('You have left the organisation.');
      expect(await roleOf(testApp, team.id, person.user.id)).toBeNull();
      expect(await eventsOf(testApp, person.user.id, 'organisation_member_left')).toEqual([
        { type: 'organisation_member_left', detail: { organisation_id: team.id, role } },
      ]);
    });

    it('refuses the last owner with a plain 409, also through removing oneself; lets one of two owners go', async () => {
      const team = await createTeam(testApp);
      const { owner, admin } = team.people;
      const refused = await owner.agent
        .post(`/api/organisations/${team.id}/leave`)
        .set('Origin', TEST_ORIGIN)
        .expect(409);
      expect(refused.body.message).toBe(LAST_OWNER);
      const self = await owner.agent
        .delete(`/api/organisations/${team.id}/members/${owner.user.id}`)
        .set('Origin', TEST_ORIGIN)
        .expect(409);
      expect(self.body.message).toBe(LAST_OWNER);
      expect(await roleOf(testApp, team.id, owner.user.id)).toBe('owner');

      await owner.agent
        .patch(`/api/organisations/${team.id}/members/${admin.user.id}`)
        .set('Origin', TEST_ORIGIN)
        .send({ role: 'owner' })
        .expect(200);
      await owner.agent.post(`/api/organisations/${team.id}/leave`).set('Origin', TEST_ORIGIN).expect(200);
      // Now the former admin is the last owner.
      await admin.agent.post(`/api/organisations/${team.id}/leave`).set('Origin', TEST_ORIGIN).expect(409);
    });

    it('lets only one of two owners leaving at the same time go', async () => {
      const { owner, organisation } = await createOrganisation(testApp);
      const second = await createLoggedInUser(testApp);
      await addMember(testApp, organisation.id, second.user.id, 'owner');
      const answers = await Promise.all(
        [owner, second].map((person) =>
          person.agent.post(`/api/organisations/${organisation.id}/leave`).set('Origin', TEST_ORIGIN),
        ),
      );
      expect(answers.map((answer) => answer.status).sort()).toEqual([200, 409]);
      const [row] = await testApp.dataSource.query(
        `SELECT count(*)::int AS n FROM organisation_memberships WHERE organisation_id = $1 AND role = 'owner'`,
        [organisation.id],
      );
      expect(row.n).toBe(1);
    });

    it('answers 404 to an outsider leaving', async () => {
      const team = await createTeam(testApp);
      await team.people.outsider.agent
        .post(`/api/organisations/${team.id}/leave`)
        .set('Origin', TEST_ORIGIN)
        .expect(404);
    });
  });
});
