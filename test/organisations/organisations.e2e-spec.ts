import { createLoggedInUser } from '../factories/user.factory';
import { createTestApp, TEST_ORIGIN, TestApp } from '../support/test-app';
import { CALLERS, Caller, createOrganisation, createTeam, eventsOf, uniqueSlug } from './support';

describe('organisations: create, read, update, delete', () => {
  let testApp: TestApp;

  beforeAll(async () => {
    testApp = await createTestApp();
  });
  afterAll(() => testApp.close());

  it('makes the creator its owner, lists it with the role and records the creation', async () => {
    const person = await createLoggedInUser(testApp);
    const slug = uniqueSlug('acme');
    const created = await person.agent
      .post('/api/organisations')
      .set('Origin', TEST_ORIGIN)
      .send({ name: '  Acme Analytics ', slug, logo_url: 'https://cdn.example.com/acme.png' })
      .expect(201);
    expect(created.body).toMatchObject({
      name: 'Acme Analytics',
      slug,
      logo_url: 'https://cdn.example.com/acme.png',
      my_role: 'owner',
    });
    const mine = await person.agent.get('/api/organisations').expect(200);
    expect(mine.body).toEqual([created.body]);
    const members = await person.agent.get(`/api/organisations/${created.body.id}/members`).expect(200);
    expect(members.body).toEqual([expect.objectContaining({ user_id: person.user.id, role: 'owner' })]);
    expect(await eventsOf(testApp, person.user.id, 'organisation_created')).toEqual([
      { type: 'organisation_created', detail: { organisation_id: created.body.id, slug } },
    ]);
  });

  it('keeps slugs unique (409) and says what is wrong with a bad name, slug or logo', async () => {
    const { owner, organisation } = await createOrganisation(testApp);
    const other = await createLoggedInUser(testApp);
    const taken = await other.agent
      .post('/api/organisations')
      .set('Origin', TEST_ORIGIN)
      .send({ name: 'Copy', slug: organisation.slug })
      .expect(409);
    expect(taken.body.message).toBe('That slug is taken. Please choose another.');

    const bad = await other.agent
      .post('/api/organisations')
      .set('Origin', TEST_ORIGIN)
      .send({ name: ' ', slug: 'Not A Slug', logo_url: 'javascript:alert(1)' })
      .expect(400);
    expect(bad.body.errors).toEqual([
      'Name is required',
      'Slug may contain only lower-case letters, digits and single hyphens between them',
      'Logo must be an https URL',
    ]);
    const short = await other.agent
      .post('/api/organisations')
      .set('Origin', TEST_ORIGIN)
      .send({ name: 'x'.repeat(101), slug: 'ab', logo_url: 'http://example.com/logo.png' })
      .expect(400);
    expect(short.body.errors).toEqual([
      'Name must be at most 100 characters long',
      'Slug must be at least 3 characters long',
      'Logo must be an https URL',
    ]);
    const missing = await other.agent
      .post('/api/organisations')
      .set('Origin', TEST_ORIGIN)
      .send({})
      .expect(400);
    expect(missing.body.errors).toEqual(['Name is required', 'Slug is required']);

    // Renaming onto a taken slug is refused the same way.
    const second = await createOrganisation(testApp, owner);
    const clash = await owner.agent
      .patch(`/api/organisations/${second.organisation.id}`)
      .set('Origin', TEST_ORIGIN)
      .send({ slug: organisation.slug })
      .expect(409);
    expect(clash.body.message).toBe('That slug is taken. Please choose another.');
  });

  it('needs a session and a same-origin request', async () => {
    await testApp.http.get('/api/organisations').expect(401);
    const person = await createLoggedInUser(testApp);
    const refused = await person.agent
      .post('/api/organisations')
      .set('Origin', 'https://evil.example')
      .send({ name: 'Evil', slug: uniqueSlug() })
      .expect(403);
    expect(refused.body.message).toBe('Cross-origin request refused');
  });

  it('answers every call of a visitor with 401', async () => {
    const { organisation } = await createOrganisation(testApp);
    const id = organisation.id;
    const someone = '00000000-0000-4000-8000-000000000000';
    const calls = [
      testApp.http.get(`/api/organisations/${id}`),
      testApp.http.patch(`/api/organisations/${id}`).send({ name: 'x' }),
      testApp.http.delete(`/api/organisations/${id}`),
      testApp.http.get(`/api/organisations/${id}/members`),
      testApp.http.patch(`/api/organisations/${id}/members/${someone}`).send({ role: 'viewer' }),
      testApp.http.delete(`/api/organisations/${id}/members/${someone}`),
      testApp.http.post(`/api/organisations/${id}/leave`),
      testApp.http
        .post(`/api/organisations/${id}/invitations`)
        .send({ email: 'a@example.test', role: 'viewer' }),
      testApp.http.get(`/api/organisations/${id}/invitations`),
      testApp.http.delete(`/api/organisations/${id}/invitations/${someone}`),
      testApp.http.post('/api/organisations/invitations/decline').send({ token: 'x' }),
    ];
    for (const call of calls) {
      const response = await call.set('Origin', TEST_ORIGIN);
      expect([response.status, response.body.message]).toEqual([401, 'Please log in to continue']);
    }
    const [row] = await testApp.dataSource.query(`SELECT name FROM organisations WHERE id = $1`, [id]);
    expect(row.name).toBe('Acme Analytics');
  });

  describe('role matrix', () => {
    const expectedRead: Record<Caller, number> = {
      owner: 200,
      admin: 200,
      editor: 200,
      viewer: 200,
      outsider: 404,
    };
    const expectedUpdate: Record<Caller, number> = {
      owner: 200,
      admin: 200,
      editor: 403,
      viewer: 403,
      outsider: 404,
    };
    const expectedDelete: Record<Caller, number> = {
      owner: 200,
      admin: 403,
      editor: 403,
      viewer: 403,
      outsider: 404,
    };

    it.each(CALLERS)('reading one organisation as %s', async (caller) => {
      const team = await createTeam(testApp);
      const response = await team.people[caller].agent.get(`/api/organisations/${team.id}`);
      expect(response.status).toBe(expectedRead[caller]);
      if (caller === 'outsider') {
        expect(response.body.message).toBe('Organisation not found');
      } else {
        expect(response.body).toMatchObject({ id: team.id, my_role: caller });
      }
    });

    it.each(CALLERS)('updating as %s', async (caller) => {
      const team = await createTeam(testApp);
      const response = await team.people[caller].agent
        .patch(`/api/organisations/${team.id}`)
        .set('Origin', TEST_ORIGIN)
        .send({ name: `Renamed by ${caller}`, logo_url: 'https://cdn.example.com/new.png' });
      expect(response.status).toBe(expectedUpdate[caller]);
      const [row] = await testApp.dataSource.query(`SELECT name, logo_url FROM organisations WHERE id = $1`, [
        team.id,
      ]);
      if (expectedUpdate[caller] === 200) {
        expect(row).toEqual({ name: `Renamed by ${caller}`, logo_url: 'https://cdn.example.com/new.png' });
      } else {
        expect(row).toEqual({ name: 'Acme Analytics', logo_url: null });
      }
      if (caller === 'editor') {
        expect(response.body.message).toBe('Only owners and admins of this organisation may do that.');
      }
    });

    it.each(CALLERS)('deleting as %s', async (caller) => {
      const team = await createTeam(testApp);
      const response = await team.people[caller].agent
        .delete(`/api/organisations/${team.id}`)
        .set('Origin', TEST_ORIGIN);
      expect(response.status).toBe(expectedDelete[caller]);
      const [row] = await testApp.dataSource.query(
        `SELECT count(*)::int AS n FROM organisations WHERE id = $1`,
        [team.id],
      );
      expect(row.n).toBe(expectedDelete[caller] === 200 ? 0 : 1);
      if (caller === 'admin')
        expect(response.body.message).toBe('Only owners of this organisation may do that.');
    });
  });

  it('removes the logo with null, keeps other fields, and deletes with members and invitations', async () => {
    const team = await createTeam(testApp);
    const { owner } = team.people;
    await owner.agent
      .patch(`/api/organisations/${team.id}`)
      .set('Origin', TEST_ORIGIN)
      .send({ logo_url: 'https://cdn.example.com/a.png' })
      .expect(200);
    const cleared = await owner.agent
      .patch(`/api/organisations/${team.id}`)
      .set('Origin', TEST_ORIGIN)
      .send({ logo_url: null })
      .expect(200);
    expect(cleared.body).toMatchObject({ name: 'Acme Analytics', slug: team.slug, logo_url: null });

    await owner.agent
      .post(`/api/organisations/${team.id}/invitations`)
      .set('Origin', TEST_ORIGIN)
      .send({ email: 'someone-new@example.test', role: 'viewer' })
      .expect(201);
    await owner.agent.delete(`/api/organisations/${team.id}`).set('Origin', TEST_ORIGIN).expect(200);
    const [left] = await testApp.dataSource.query(
      `SELECT (SELECT count(*)::int FROM organisation_memberships WHERE organisation_id = $1) AS members,
              (SELECT count(*)::int FROM organisation_invitations WHERE organisation_id = $1) AS invitations`,
      [team.id],
    );
    expect(left).toEqual({ members: 0, invitations: 0 });
    expect(await eventsOf(testApp, owner.user.id, 'organisation_deleted')).toEqual([
      { type: 'organisation_deleted', detail: { organisation_id: team.id } },
    ]);
    await team.people.viewer.agent.get(`/api/organisations/${team.id}`).expect(404);
  });

  it('answers 404 for ids that are not uuids or name nothing', async () => {
    const person = await createLoggedInUser(testApp);
    await person.agent.get('/api/organisations/not-a-uuid').expect(404);
    await person.agent.get('/api/organisations/00000000-0000-4000-8000-000000000000/members').expect(404);
  });
});
