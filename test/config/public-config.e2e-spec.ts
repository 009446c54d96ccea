import { createTestApp, TestApp } from '../support/test-app';

describe('GET /api/config/public', () => {
  describe('with CONTACT_FORM_URL set', () => {
    let testApp: TestApp;
    beforeAll(async () => {
      testApp = await createTestApp({ CONTACT_FORM_URL: 'https://forms.example.com/contact' });
    });
    afterAll(() => testApp.close());

    it('gives visitors the contact form URL the contact page embeds', async () => {
      const response = await testApp.http.get('/api/config/public').expect(200);
      expect(response.body).toEqual({ contact_form_url: 'https://forms.example.com/contact' });
    });

    it('allows that form origin as a frame source in the content security policy', async () => {
      const response = await testApp.http.get('/api/config/public').expect(200);
      expect(response.headers['content-security-policy']).toMatch(
        /frame-src 'self' https:\/\/forms\.example\.com/,
      );
    });
  });

  describe('without CONTACT_FORM_URL', () => {
    let testApp: TestApp;
    beforeAll(async () => {
      testApp = await createTestApp();
    });
    afterAll(() => testApp.close());

    it('answers null so the contact page can say the form is unavailable', async () => {
      const response = await testApp.http.get('/api/config/public').expect(200);
      expect(response.body).toEqual({ contact_form_url: null });
    });
  });
});
