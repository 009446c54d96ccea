import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTestApp, TestApp } from '../support/test-app';

describe('the app shell', () => {
  let testApp: TestApp;
  const webRoot = mkdtempSync(join(tmpdir(), 'dm-web-'));

  beforeAll(async () => {
    writeFileSync(join(webRoot, 'index.html'), '<!doctype html><div id="root">spa-index</div>');
    writeFileSync(join(webRoot, 'humans.txt'), 'Made by people');
    testApp = await createTestApp({ WEB_ROOT: webRoot });
  });
  afterAll(() => testApp.close());

  it('boots and reports a healthy database', async () => {
    const response = await testApp.http.get('/api/health').expect(200);
    expect(response.body).toEqual({ status: 'ok', database: 'up' });
  });

  it.each(['/', '/datastore', '/blog/some-post', '/dataset_profile/123', '/verify-email/abc'])(
    'serves the SPA index for the client route %s',
    async (path) => {
      const response = await testApp.http.get(path).expect(200);
      expect(response.headers['content-type']).toMatch(/text\/html/);
      expect(response.text).toContain('spa-index');
    },
  );

  it('serves static files of the build as they are', async () => {
    const response = await testApp.http.get('/humans.txt').expect(200);
    expect(response.text).toBe('Made by people');
  });

  it('answers an unknown API path with a JSON 404 in the error shape', async () => {
    const response = await testApp.http.get('/api/no-such-thing').expect(404);
    expect(response.headers['content-type']).toMatch(/application\/json/);
    expect(response.body).toEqual({
      error: expect.stringContaining('/api/no-such-thing'),
      message: expect.stringContaining('/api/no-such-thing'),
      statusCode: 404,
    });
  });

  it('keeps /ws out of the app: 404 and no SPA page', async () => {
    const response = await testApp.http.get('/ws').expect(404);
    expect(response.text).not.toContain('spa-index');
  });

  it('serves the OpenAPI document and Swagger UI at /api-documentation', async () => {
    const ui = await testApp.http.get('/api-documentation').redirects(1).expect(200);
    expect(ui.text).toMatch(/swagger/i);
    const document = await testApp.http.get('/api-documentation-json').expect(200);
    expect(document.body.openapi).toMatch(/^3\./);
    expect(Object.keys(document.body.paths)).toContain('/api/health');
  });

  it('sets security headers and a request id', async () => {
    const response = await testApp.http.get('/api/health').expect(200);
    expect(response.headers['content-security-policy']).toContain("default-src 'self'");
    expect(response.headers['x-content-type-options']).toBe('nosniff');
    expect(response.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    expect(response.headers['x-powered-by']).toBeUndefined();
  });

  it('switches off browser features the app does not use (Permissions-Policy), on pages and the API', async () => {
    for (const path of ['/api/health', '/']) {
      const response = await testApp.http.get(path).expect(200);
      expect(response.headers['permissions-policy']).toContain('camera=()');
      expect(response.headers['permissions-policy']).toContain('geolocation=()');
      expect(response.headers['permissions-policy']).toContain('microphone=()');
    }
  });

  it('echoes a well-formed incoming request id', async () => {
    const response = await testApp.http.get('/api/health').set('X-Request-Id', 'trace-42').expect(200);
    expect(response.headers['x-request-id']).toBe('trace-42');
  });

  it('refuses a cross-origin state-changing request with 403 in the error shape', async () => {
    const response = await testApp.http
      .post('/api/users/logout')
      .set('Origin', 'https://evil.example')
      .expect(403);
    expect(response.body).toEqual({
      error: 'Cross-origin request refused',
      message: 'Cross-origin request refused',
      statusCode: 403,
    });
  });
});
