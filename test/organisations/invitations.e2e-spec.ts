import { randomUUID } from 'node:crypto';
import { createLoggedInUser, createUser, loginAs } from '../factories/user.factory';
import { createTestApp, TEST_ORIGIN, TestApp } from '../support/test-app';
import { CALLERS, Caller, createTeam, eventsOf, invitationTokenFor, Person, roleOf, Team } from './support';

const OTHER_ADDRESS =
  'This invitation was sent to another e-mail address. Please log in with that address to answer it.';

function newAddress(): string {
  return `invitee-${randomUUID()}@example.test`;
}

describe('organisations: invitations by e-mail', () => {
  let testApp: TestApp;

  beforeAll(async () => {
    testApp = await createTestApp();
  });
  afterAll(() => testApp.close());

  function invite(team: Team, by: Person, email: string, role = 'editor') {
    return by.agent
      .post(`/api/organisations/${team.id}/invitations`)
      .set('Origin', TEST_ORIGIN)
      .send({ email, role });
  }

  function answer(person: Person, token: string, how: 'accept' | 'decline') {
    return person.agent
      .post(`/api/organisations/invitations/${how}`)
      .set('Origin', TEST_ORIGIN)
      .send({ token });
  }

  it('mails a link; the addressee accepts it, joins with the role, and both sides are in the log', async () => {
    const team = await createTeam(testApp);
    const invitee = await createLoggedInUser(testApp, { email: newAddress() });
    const sent = await invite(team, team.people.admin, invitee.user.email.toUpperCase(), 'editor').expect(
      201,
    );
    expect(sent.body).toMatchObject({
      email: invitee.user.email.toUpperCase(),
      role: 'editor',
      invited_by: { id: team.people.admin.user.id, name: team.people.admin.user.name },
      expired: false,
    });
    // Seven days after it was sent: both are stamped in the same transaction.
    const lifetime = Date.parse(sent.body.expires_at) - Date.parse(sent.body.created_at);
    expect(lifetime).toBe(7 * 24 * 60 * 60 * 1000);
    expect(JSON.stringify(sent.body)).not.toContain('token');

    const [mail] = (
      await testApp.http.get('/api/dev/outbox').query({ email: invitee.user.email }).expect(200)
    ).body;
    expect(mail.subject).toBe('Join Acme Analytics');
    expect(mail.text).toContain('invites you to join the organisation "Acme Analytics" as editor');
    const token = await invitationTokenFor(testApp, invitee.user.email);
    const [stored] = await testApp.dataSource.query(
      `SELECT token_hash FROM organisation_invitations WHERE id = $1`,
      [sent.body.id],
    );
    expect(stored.token_hash).not.toBe(token);

    const accepted = await answer(invitee, token, 'accept').expect(200);
    expect(accepted.body).toMatchObject({ id: team.id, my_role: 'editor' });
    expect(await roleOf(testApp, team.id, invitee.user.id)).toBe('editor');
    expect(await eventsOf(testApp, team.people.admin.user.id, 'organisation_member_invited')).toEqual([
      {
        type: 'organisation_member_invited',
        detail: { organisation_id: team.id, invitation_id: sent.body.id, role: 'editor' },
      },
    ]);
    expect(await eventsOf(testApp, invitee.user.id, 'organisation_member_joined')).toEqual([
      {
        type: 'organisation_member_joined',
        detail: { organisation_id: team.id, invitation_id: sent.body.id, role: 'editor' },
      },
    ]);
    // Answered invitations are no longer pending.
    const pending = await team.people.owner.agent
      .get(`/api/organisations/${team.id}/invitations`)
      .expect(200);
    expect(pending.body).toEqual([]);
  });

  it('refuses a replayed link, and a declined one, without changing anything', async () => {
    const team = await createTeam(testApp);
    const invitee = await createLoggedInUser(testApp, { email: newAddress() });
    await invite(team, team.people.owner, invitee.user.email, 'viewer').expect(201);
    const token = await invitationTokenFor(testApp, invitee.user.email);
    await answer(invitee, token, 'accept').expect(200);
    const replayed = await answer(invitee, token, 'accept').expect(409);
    expect(replayed.body.message).toBe('This invitation has been answered already.');
    await answer(invitee, token, 'decline').expect(409);
    expect(await eventsOf(testApp, invitee.user.id, 'organisation_member_joined')).toHaveLength(1);

    const other = await createLoggedInUser(testApp, { email: newAddress() });
    await invite(team, team.people.owner, other.user.email, 'viewer').expect(201);
    const otherToken = await invitationTokenFor(testApp, other.user.email);
    const declined = await answer(other, otherToken, 'decline').expect(200);
    expect(declined.body.message).toBe('Invitation declined.');
    await answer(other, otherToken, 'accept').expect(409);
    expect(await roleOf(testApp, team.id, other.user.id)).toBeNull();
  });

  it('refuses an expired link with 410 and a message; inviting again sends a fresh one', async () => {
    const team = await createTeam(testApp);
    const invitee = await createLoggedInUser(testApp, { email: newAddress() });
    const sent = await invite(team, team.people.owner, invitee.user.email, 'viewer').expect(201);
    const token = await invitationTokenFor(testApp, invitee.user.email);
    await testApp.dataSource.query(
      `UPDATE organisation_invitations SET expires_at = now() - interval '1 second' WHERE id = $1`,
      [sent.body.id],
    );
    const listed = await team.people.owner.agent.get(`/api/organisations/${team.id}/invitations`).expect(200);
    expect(listed.body).toEqual([expect.objectContaining({ id: sent.body.id, expired: true })]);
    const expired = await answer(invitee, token, 'accept').expect(410);
    expect(expired.body.message).toBe('This invitation has expired. Please ask for a new one.');
    expect(await roleOf(testApp, team.id, invitee.user.id)).toBeNull();

    const again = await invite(team, team.people.owner, invitee.user.email, 'editor').expect(201);
    expect(again.body).toMatchObject({ id: sent.body.id, role: 'editor', expired: false });
    const fresh = await invitationTokenFor(testApp, invitee.user.email);
    expect(fresh).not.toBe(token);
    // The old link ended with the new one.
    await answer(invitee, token, 'accept').expect(404);
    await answer(invitee, fresh, 'accept').expect(200);
    expect(await roleOf(testApp, team.id, invitee.user.id)).toBe('editor');
  });

  it('lets only the addressee answer: another logged-in user gets 403 and the invitation stays', async () => {
    const team = await createTeam(testApp);
    const address = newAddress();
    await invite(team, team.people.owner, address, 'admin').expect(201);
    const token = await invitationTokenFor(testApp, address);
    const stranger = await createLoggedInUser(testApp);
    for (const how of ['accept', 'decline'] as const) {
      const refused = await answer(stranger, token, how).expect(403);
      expect(refused.body.message).toBe(OTHER_ADDRESS);
    }
    expect(await roleOf(testApp, team.id, stranger.user.id)).toBeNull();
    // The addressee registers later (here: an account made with that address) and can still join.
    const addressee = await createUser(testApp.dataSource, { email: address });
    const agent = await loginAs(testApp, addressee);
    await answer({ user: addressee, agent }, token, 'accept').expect(200);
    expect(await roleOf(testApp, team.id, addressee.id)).toBe('admin');
  });

  it('answers 404 to a made-up token, 401 without a session, and a clear message without a token', async () => {
    const someone = await createLoggedInUser(testApp);
    const unknown = await answer(someone, 'made-up-token', 'accept').expect(404);
    expect(unknown.body.message).toBe('This invitation link is invalid.');
    const missing = await someone.agent
      .post('/api/organisations/invitations/accept')
      .set('Origin', TEST_ORIGIN)
      .send({})
      .expect(400);
    expect(missing.body.errors).toEqual(['This invitation link is invalid.']);
    await testApp.http
      .post('/api/organisations/invitations/accept')
      .set('Origin', TEST_ORIGIN)
      .send({ token: 'x' })
      .expect(401);
  });

  it('says what is wrong with an address or a role, and refuses to invite a member', async () => {
    const team = await createTeam(testApp);
    const bad = await invite(team, team.people.owner, 'not-an-address', 'boss').expect(400);
    expect(bad.body.errors).toEqual([
      'Please enter a valid email address',
      'Role must be one of: owner, admin, editor, viewer',
    ]);
    const member = await invite(team, team.people.owner, team.people.viewer.user.email, 'admin').expect(409);
    expect(member.body.message).toBe('That person is a member of this organisation already.');
  });

  describe('role matrix', () => {
    const inviteStatus: Record<Caller, number> = {
      owner: 201,
      admin: 201,
      editor: 403,
      viewer: 403,
      outsider: 404,
    };
    const listStatus: Record<Caller, number> = {
      owner: 200,
      admin: 200,
      editor: 403,
      viewer: 403,
      outsider: 404,
    };

    it.each(CALLERS)('inviting as %s', async (caller) => {
      const team = await createTeam(testApp);
      const address = newAddress();
      const response = await invite(team, team.people[caller], address, 'viewer');
      expect(response.status).toBe(inviteStatus[caller]);
      const mails = (await testApp.http.get('/api/dev/outbox').query({ email: address }).expect(200)).body;
      expect(mails).toHaveLength(inviteStatus[caller] === 201 ? 1 : 0);
      if (caller === 'viewer') {
        expect(response.body.message).toBe('Only owners and admins of this organisation may do that.');
      }
    });

    it('lets only owners invite owners', async () => {
      const team = await createTeam(testApp);
      const byAdmin = await invite(team, team.people.admin, newAddress(), 'owner').expect(403);
      expect(byAdmin.body.message).toBe('Only an owner may make someone an owner or change an owner’s role.');
      const address = newAddress();
      await invite(team, team.people.owner, address, 'owner').expect(201);
      const invitee = await createLoggedInUser(testApp, { email: address });
      await answer(invitee, await invitationTokenFor(testApp, address), 'accept').expect(200);
      expect(await roleOf(testApp, team.id, invitee.user.id)).toBe('owner');
    });

    it.each(CALLERS)('listing pending invitations as %s', async (caller) => {
      const team = await createTeam(testApp);
      const address = newAddress();
      await invite(team, team.people.owner, address, 'viewer').expect(201);
      const response = await team.people[caller].agent.get(`/api/organisations/${team.id}/invitations`);
      expect(response.status).toBe(listStatus[caller]);
      if (listStatus[caller] === 200) {
        expect(response.body).toEqual([
          expect.objectContaining({ email: address, role: 'viewer', expired: false }),
        ]);
      }
    });

    it.each(CALLERS)('revoking as %s', async (caller) => {
      const team = await createTeam(testApp);
      const address = newAddress();
      const sent = await invite(team, team.people.owner, address, 'viewer').expect(201);
      const response = await team.people[caller].agent
        .delete(`/api/organisations/${team.id}/invitations/${sent.body.id}`)
        .set('Origin', TEST_ORIGIN);
      expect(response.status).toBe(listStatus[caller]);
      const [row] = await testApp.dataSource.query(
        `SELECT state FROM organisation_invitations WHERE id = $1`,
        [sent.body.id],
      );
      expect(row.state).toBe(listStatus[caller] === 200 ? 'revoked' : 'pending');
      if (listStatus[caller] === 200) {
        const invitee = await createLoggedInUser(testApp, { email: address });
        const withdrawn = await answer(invitee, await invitationTokenFor(testApp, address), 'accept').expect(
          410,
        );
        expect(withdrawn.body.message).toBe('This invitation was withdrawn.');
        // Revoking twice: nothing pending by that id any more.
        await team.people[caller].agent
          .delete(`/api/organisations/${team.id}/invitations/${sent.body.id}`)
          .set('Origin', TEST_ORIGIN)
          .expect(404);
      }
    });
  });

  it('keeps invitations of one organisation out of reach of another’s admins', async () => {
    const first = await createTeam(testApp);
    const second = await createTeam(testApp);
    const sent = await invite(first, first.people.owner, newAddress(), 'viewer').expect(201);
    await second.people.owner.agent
      .delete(`/api/organisations/${second.id}/invitations/${sent.body.id}`)
      .set('Origin', TEST_ORIGIN)
      .expect(404);
    await second.people.owner.agent
      .delete(`/api/organisations/${first.id}/invitations/${sent.body.id}`)
      .set('Origin', TEST_ORIGIN)
      .expect(404);
  });
});
