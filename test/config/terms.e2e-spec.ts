import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../../src/config/app-config';
import { createTestApp, TestApp } from '../support/test-app';

describe('GET /api/config/terms: the terms of use shown on /terms', () => {
  it('serves real terms by default: accounts, purchases, uploads and leaving are covered', async () => {
    const testApp = await createTestApp();
    try {
      const { markdown } = (await testApp.http.get('/api/config/terms').expect(200)).body;
      expect(markdown).toMatch(/^# Terms and Conditions/);
      for (const topic of ['## 1. Your account', '## 2. Buying and getting datasets', '## 3. Uploading'])
        expect(markdown).toContain(topic);
      expect(markdown.length).toBeGreaterThan(1500);
    } finally {
      await testApp.close();
    }
  });

  describe('with TERMS_FILE set', () => {
    let testApp: TestApp;
    const folder = mkdtempSync(join(tmpdir(), 'dm-terms-'));
    const file = join(folder, 'terms.md');

    beforeAll(async () => {
      writeFileSync(file, '# Our own terms\n\nOperated by Example GmbH.\n');
      testApp = await createTestApp({ TERMS_FILE: file });
    });
    afterAll(() => testApp.close());

    it("serves the operator's text instead", async () => {
      const response = await testApp.http.get('/api/config/terms').expect(200);
      expect(response.body).toEqual({ markdown: '# Our own terms\n\nOperated by Example GmbH.\n' });
    });

    it('refuses to start with a missing or empty file', () => {
      const empty = join(folder, 'empty.md');
      writeFileSync(empty, '  \n');
      const base = { NODE_ENV: 'test', DATA_DIR: folder };
      expect(() => loadConfig({ ...base, TERMS_FILE: join(folder, 'missing.md') })).toThrow(
        /TERMS_FILE: cannot read/,
      );
      expect(() => loadConfig({ ...base, TERMS_FILE: empty })).toThrow(/TERMS_FILE: .* is empty/);
    });
  });
});
