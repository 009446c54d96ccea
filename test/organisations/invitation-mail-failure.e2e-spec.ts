import { INVITATION_NOT_SENT } from '../../src/organisations/organisations.messages';
import { createTestApp, TEST_ORIGIN, TestApp } from '../support/test-app';
import { createTeam } from './support';

/**
 * An invitation whose mail cannot be sent (the mail server refuses) answered 500 and stayed
 * pending, a link nobody had. It now answers 503 in plain words and is revoked, so the admin can
 * simply invite again once mail works.
 */
describe('POST /api/organisations/:id/invitations when mail cannot be sent', () => {
  let testApp: TestApp;

  // Nothing listens on port 1: every mail fails to connect.
  beforeAll(async () => {
    testApp = await createTestApp({ SMTP_URL: 'smtp://127.0.0.1:1' });
  });
  afterAll(() => testApp.close());

  it('answers 503 and leaves no pending invitation', async () => {
    const team = await createTeam(testApp);
    const response = await team.people.admin.agent
      .post(`/api/organisations/${team.id}/invitations`)
      .set('Origin', TEST_ORIGIN)
      .send({ email: 'nobody-gets-this@example.com', role: 'viewer' })
      .expect(503);
    expect(response.body.message).toBe(INVITATION_NOT_SENT);
    const states = await testApp.dataSource.query(
      `SELECT state FROM organisation_invitations WHERE organisation_id = $1`,
      [team.id],
    );
    expect(states).toEqual([{ state: 'revoked' }]);
  });
});
