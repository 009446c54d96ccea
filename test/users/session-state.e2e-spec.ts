import { createLoggedInUser } from '../factories/user.factory';
import { createTestApp, TestApp } from '../support/test-app';

describe('GET /api/users/session: who is signed in, without a failed request', () => {
  let testApp: TestApp;
  beforeAll(async () => {
    testApp = await createTestApp();
  });
  afterAll(() => testApp.close());

  it('answers 200 with user null for a visitor, while users/me keeps its 401 for API clients', async () => {
    const response = await testApp.http.get('/api/users/session').expect(200);
    expect(response.body).toEqual({ user: null });
    expect(response.headers['cache-control']).toBe('no-store');
    const me = await testApp.http.get('/api/users/me').expect(401);
    expect(me.body.message).toBe('Please log in to continue');
  });

  it('answers the signed-in user, as users/me does', async () => {
    const { agent, user } = await createLoggedInUser(testApp);
    const session = await agent.get('/api/users/session').expect(200);
    const me = await agent.get('/api/users/me').expect(200);
    expect(session.body.user).toEqual(me.body);
    expect(session.body.user.email).toBe(user.email);
  });

  it('answers user null once the session is over', async () => {
    const { agent } = await createLoggedInUser(testApp);
    await agent.post('/api/users/logout').set('Origin', 'http://localhost:3000').expect(200);
    expect((await agent.get('/api/users/session').expect(200)).body).toEqual({ user: null });
  });
});
