import { createTestApp, TEST_ORIGIN, TestApp } from '../support/test-app';
import { addMember, createOrganisation, createTeam, roleOf } from './support';

describe('organisations: deleting the account of a member', () => {
  let testApp: TestApp;

  beforeAll(async () => {
    testApp = await createTestApp();
  });
  afterAll(() => testApp.close());

  const countOf = async (id: string) =>
    (await testApp.dataSource.query(`SELECT count(*)::int AS n FROM organisations WHERE id = $1`, [id]))[0].n;

  it('refuses to delete the last owner’s account while others are members, and keeps everything', async () => {
    const team = await createTeam(testApp);
    const { owner } = team.people;
    const refused = await owner.agent
      .delete('/api/users/me')
      .set('Origin', TEST_ORIGIN)
      .send({ password: owner.user.password })
      .expect(409);
    expect(refused.body.message).toBe(
      'You are the last owner of the organisation "Acme Analytics". Make another member an owner, or delete the organisation, before deleting your account.',
    );
    expect(await roleOf(testApp, team.id, owner.user.id)).toBe('owner');
    await owner.agent.get('/api/users/me').expect(200);
  });

  it('deletes an organisation the account was alone in, and only ends the membership where another owner remains', async () => {
    const { owner, organisation: alone } = await createOrganisation(testApp);
    const shared = await createTeam(testApp);
    await addMember(testApp, shared.id, owner.user.id, 'owner');
    await owner.agent
      .delete('/api/users/me')
      .set('Origin', TEST_ORIGIN)
      .send({ password: owner.user.password })
      .expect(200);
    expect(await countOf(alone.id)).toBe(0);
    expect(await countOf(shared.id)).toBe(1);
    expect(await roleOf(testApp, shared.id, owner.user.id)).toBeNull();
    expect(await roleOf(testApp, shared.id, shared.people.owner.user.id)).toBe('owner');
  });
});
