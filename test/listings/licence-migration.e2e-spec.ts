import { LicencesAsSpdxIds1796048000000 } from '../../src/database/migrations/1796048000000-LicencesAsSpdxIds';
import { uploadDataset } from '../factories/asset.factory';
import { createLoggedInUser } from '../factories/user.factory';
import { createTestApp, TestApp } from '../support/test-app';

describe('the migration of free-text licences to SPDX ids', () => {
  let testApp: TestApp;
  afterAll(() => testApp.close());

  it('maps the texts that name a listed licence to its id and keeps any other text', async () => {
    testApp = await createTestApp();
    const owner = await createLoggedInUser(testApp);
    const texts = ['CC BY 4.0', 'https://opendatacommons.org/licenses/odbl/1-0/', 'Internal use only', ''];
    const ids: string[] = [];
    for (const text of texts) {
      const id = await uploadDataset(owner.agent, { title: `Licence ${texts.indexOf(text)}` });
      // Written as the old free-text column held it, past today's normalising on upload.
      await testApp.dataSource.query(`UPDATE assets SET licence = $1 WHERE id = $2`, [text, id]);
      ids.push(id);
    }
    const runner = testApp.dataSource.createQueryRunner();
    try {
      await new LicencesAsSpdxIds1796048000000().up(runner);
    } finally {
      await runner.release();
    }
    const rows: Array<{ id: string; licence: string }> = await testApp.dataSource.query(
      `SELECT id, licence FROM assets WHERE id = ANY($1)`,
      [ids],
    );
    const licenceOf = new Map(rows.map((row) => [row.id, row.licence]));
    expect(ids.map((id) => licenceOf.get(id))).toEqual(['CC-BY-4.0', 'ODbL-1.0', 'Internal use only', '']);
  });
});
