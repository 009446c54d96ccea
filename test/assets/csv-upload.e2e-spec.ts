import type TestAgent from 'supertest/lib/agent';
import type { Test } from 'supertest';
import {
  assetCount,
  orphanDatasetTables,
  expectNoIngestConnections,
  postCsv,
} from '../factories/asset.factory';
import { createLoggedInUser } from '../factories/user.factory';
import { createTestApp, TEST_ORIGIN, TestApp } from '../support/test-app';

interface Column {
  name: string;
  label: string;
  type: string;
}

describe('POST assets/upload-csv: streaming CSV ingest', () => {
  let testApp: TestApp;
  let agent: TestAgent<Test>;
  let uploaderId: string;

  beforeAll(async () => {
    testApp = await createTestApp();
    const uploader = await createLoggedInUser(testApp, { name: 'Ada Uploader' });
    agent = uploader.agent;
    uploaderId = uploader.user.id;
  });
  afterAll(() => testApp.close());

  /** Uploads and returns the new dataset's detail and all its rows. */
  async function ingest(csv: string | Buffer, fields: Record<string, string> = {}, fieldsAfterFile = false) {
    const response = await postCsv(agent, csv, { title: 'Shapes', ...fields }, 'data.csv', fieldsAfterFile);
    expect(response.body).toEqual({
      id: expect.any(String),
      redirectUrl: `/dataset_profile/${response.body.id}`,
      dialect: expect.objectContaining({ encoding: 'utf-8' }),
    });
    expect(response.status).toBe(201);
    const detail = await agent.get(`/api/assets/${response.body.id}`).expect(200);
    const data = await agent.get(`/api/assets/${response.body.id}/data?limit=1000`).expect(200);
    return {
      detail: detail.body,
      columns: detail.body.columns as Column[],
      rows: data.body.rows as Record<string, unknown>[],
    };
  }

  /** Expects a refusal with this status and message, and that nothing was left behind. */
  async function expectRejected(
    send: () => Promise<{ status: number; body: { error?: string } }>,
    status: number,
    message: string | RegExp,
  ) {
    const assetsBefore = await assetCount(testApp.dataSource, uploaderId);
    const response = await send();
    expect(response.status).toBe(status);
    if (typeof message === 'string') expect(response.body.error).toBe(message);
    else expect(response.body.error).toMatch(message);
    expect(await assetCount(testApp.dataSource, uploaderId)).toBe(assetsBefore);
    expect(await orphanDatasetTables(testApp.dataSource)).toEqual([]);
    await expectNoIngestConnections(testApp);
  }

  describe('accepted shapes', () => {
    it('answers {id, redirectUrl} and makes the uploader the owner with access and the author', async () => {
      const { detail } = await ingest('name,amount\nalpha,1\nbeta,2\n', {
        description: 'Two rows',
        category: 'Finance',
        keywords: 'alpha, beta,  ,alpha',
        price: '12.50',
        is_public: 'false',
      });
      expect(detail).toMatchObject({
        title: 'Shapes',
        description: 'Two rows',
        category: 'Finance',
        keywords: ['alpha', 'beta'],
        price: 12.5,
        is_public: false,
        visibility: 'private',
        owned: true,
        has_access: true,
        subscriber_count: 0,
        author: 'Ada Uploader',
        row_count: 2,
      });
      const [grant] = await testApp.dataSource.query(`SELECT reason FROM access_grants WHERE asset_id = $1`, [
        detail.id,
      ]);
      expect(grant.reason).toBe('owner');
    });

    it('stores every row in a real table in schema data', async () => {
      const { detail } = await ingest('name,amount\nalpha,1\nbeta,2\ngamma,3\n');
      const [asset] = await testApp.dataSource.query(`SELECT table_name FROM assets WHERE id = $1`, [
        detail.id,
      ]);
      const rows = await testApp.dataSource.query(
        `SELECT name, amount FROM data."${asset.table_name}" ORDER BY _row_id`,
      );
      expect(rows).toEqual([
        { name: 'alpha', amount: '1' },
        { name: 'beta', amount: '2' },
        { name: 'gamma', amount: '3' },
      ]);
    });

    it('reads UTF-8 with a byte order mark and keeps non-ASCII text', async () => {
      const { columns, rows } = await ingest(
        Buffer.concat([
          Buffer.from([0xef, 0xbb, 0xbf]),
          Buffer.from('Stadt,Einwohner\nMünchen,1512491\nKöln,1084831\n'),
        ]),
      );
      expect(columns.map((column) => column.name)).toEqual(['stadt', 'einwohner']);
      expect(rows).toEqual([
        { stadt: 'München', einwohner: 1512491 },
        { stadt: 'Köln', einwohner: 1084831 },
      ]);
    });

    it('detects semicolon and tab delimiters from the header line, and a decimal comma as the preview does', async () => {
      const semicolon = await ingest('product;price\n"Tea; green";3,50\nCoffee;4\n');
      expect(semicolon.rows).toEqual([
        { product: 'Tea; green', price: 3.5 },
        { product: 'Coffee', price: 4 },
      ]);
      const tab = await ingest('city\tzip\nBerlin\t10115\nHamburg\t20095\n');
      expect(tab.rows).toEqual([
        { city: 'Berlin', zip: 10115 },
        { city: 'Hamburg', zip: 20095 },
      ]);
    });

    it('keeps quoted fields with delimiters, quotes and line breaks, and handles CRLF', async () => {
      const { rows } = await ingest('id,note\r\n1,"line one\r\nline two"\r\n2,"say ""hi"", ok"\r\n');
      expect(rows).toEqual([
        { id: 1, note: 'line one\r\nline two' },
        { id: 2, note: 'say "hi", ok' },
      ]);
    });

    it('stores an unquoted empty field as NULL, a quoted one as "" in text (NULL in numbers), and ignores blank lines', async () => {
      const { rows, columns } = await ingest('a,b,c\n1,,x\n,"",""\n\n3,4,\n');
      expect(columns.map((column) => column.type)).toEqual(['integer', 'integer', 'text']);
      expect(rows).toEqual([
        { a: 1, b: null, c: 'x' },
        { a: null, b: null, c: '' },
        { a: 3, b: 4, c: null },
      ]);
    });

    it('accepts the text fields after the file part', async () => {
      const { detail } = await ingest('x\n1\n', { title: 'Fields last' }, true);
      expect(detail.title).toBe('Fields last');
    });

    it('turns header names into safe unique column names and keeps the originals as labels', async () => {
      const { columns, rows } = await ingest('"Unit Price ($)",unit price,2024,,"select"\n1,2,3,4,5\n');
      expect(columns).toEqual([
        { name: 'unit_price', label: 'Unit Price ($)', type: 'integer' },
        { name: 'unit_price_2', label: 'unit price', type: 'integer' },
        { name: 'c_2024', label: '2024', type: 'integer' },
        { name: 'column_4', label: 'Column 4', type: 'integer' },
        { name: 'select', label: 'select', type: 'integer' },
      ]);
      expect(rows).toEqual([{ unit_price: 1, unit_price_2: 2, c_2024: 3, column_4: 4, select: 5 }]);
    });

    it('infers integer, numeric, boolean, date, timestamp, timestamptz and text columns', async () => {
      const { columns, rows } = await ingest(
        [
          'count,ratio,active,day,seen_at,local_at,code,label',
          '1,0.5,true,2024-01-31,2024-01-31T10:00:00Z,2024-01-31 10:00,007,a',
          '-2,3,no,2024-02-29,2024-02-29 12:30:00+02:00,2024-02-29T12:30:00.5,008,b',
          ',1e3,,,,,,',
        ].join('\n'),
      );
      expect(Object.fromEntries(columns.map((column) => [column.name, column.type]))).toEqual({
        count: 'integer',
        ratio: 'numeric',
        active: 'boolean',
        day: 'date',
        seen_at: 'timestamptz',
        local_at: 'timestamp',
        code: 'text',
        label: 'text',
      });
      expect(rows[1]).toEqual({
        count: -2,
        ratio: 3,
        active: false,
        day: '2024-02-29',
        seen_at: '2024-02-29T10:30:00+00:00',
        local_at: '2024-02-29T12:30:00.5',
        code: '008',
        label: 'b',
      });
    });

    it('falls back to text for a column whose values do not all fit a type', async () => {
      const { columns, rows } = await ingest('amount,when,flag\n1,2024-01-01,yes\nabout 3,soon,maybe\n');
      expect(columns.map((column) => column.type)).toEqual(['text', 'text', 'text']);
      expect(rows[1]).toEqual({ amount: 'about 3', when: 'soon', flag: 'maybe' });
    });

    it('keeps single-letter codes as text, never as booleans', async () => {
      const { columns, rows } = await ingest('patient,sex,answer\np1,F,y\np2,F,N\n');
      expect(columns.map((column) => column.type)).toEqual(['text', 'text', 'text']);
      expect(rows).toEqual([
        { patient: 'p1', sex: 'F', answer: 'y' },
        { patient: 'p2', sex: 'F', answer: 'N' },
      ]);
    });

    it('takes names that look like values for a header when line 2 differs or they are years', async () => {
      const years = await ingest('2022,2023,2024\n10,20,30\n');
      expect(years.columns.map((column) => column.label)).toEqual(['2022', '2023', '2024']);
      expect(years.rows).toEqual([{ c_2022: 10, c_2023: 20, c_2024: 30 }]);
      const letter = await ingest('n\n1.10\n2.50\n');
      expect(letter.rows).toEqual([{ n: 1.1 }, { n: 2.5 }]);
      const answers = await ingest('Yes,No\n10,20\n');
      expect(answers.columns.map((column) => column.label)).toEqual(['Yes', 'No']);
    });

    it('falls back to text only for the column Postgres cannot cast (an impossible date)', async () => {
      const { columns, rows } = await ingest('n,day\n1,2023-02-28\n2,2023-02-30\n');
      expect(columns.map((column) => column.type)).toEqual(['integer', 'text']);
      expect(rows).toEqual([
        { n: 1, day: '2023-02-28' },
        { n: 2, day: '2023-02-30' },
      ]);
    });

    it('keeps integers beyond bigint as numeric', async () => {
      const { columns, rows } = await ingest('big\n12345678901234567890\n1\n');
      expect(columns[0].type).toBe('numeric');
      expect(rows).toHaveLength(2);
    });
  });

  describe('rejections leave no asset, no table and no open transaction behind', () => {
    it('refuses a visitor with 401 before reading the file', async () => {
      await expectRejected(
        () =>
          testApp.http
            .post('/api/assets/upload-csv')
            .set('Origin', TEST_ORIGIN)
            .field('title', 'x')
            .attach('file', Buffer.from('a\n1\n'), 'a.csv'),
        401,
        'Please log in to continue',
      );
    });

    it('requires a title', async () => {
      await expectRejected(() => postCsv(agent, 'a\n1\n', {}), 400, 'Add title & CSV file.');
      await expectRejected(() => postCsv(agent, 'a\n1\n', { title: '   ' }), 400, 'Add title & CSV file.');
    });

    it('requires a file', async () => {
      await expectRejected(
        () => agent.post('/api/assets/upload-csv').set('Origin', TEST_ORIGIN).field('title', 'No file'),
        400,
        'Add title & CSV file.',
      );
    });

    it.each(['-1', '1.234', 'abc', '1e3'])('rejects the price %p', async (price) => {
      await expectRejected(
        () => postCsv(agent, 'a\n1\n', { title: 'Priced', price }),
        400,
        'Price must be a non-negative amount with at most two decimals.',
      );
    });

    it('rejects a price above 1,000,000 and accepts 1,000,000 itself', async () => {
      await expectRejected(
        () => postCsv(agent, 'a\n1\n', { title: 'Priced', price: '99999999999999' }),
        400,
        'Price must be at most 1,000,000.',
      );
      await postCsv(agent, 'a\n1\n', { title: 'Top price', price: '1000000.00' }).expect(201);
    });

    it('rejects an empty file', async () => {
      await expectRejected(() => postCsv(agent, '', { title: 'Empty' }), 400, 'The file is empty.');
      await expectRejected(() => postCsv(agent, '\ufeff \n', { title: 'Empty' }), 400, 'The file is empty.');
    });

    it('rejects a header without data rows', async () => {
      await expectRejected(
        () => postCsv(agent, 'a,b\n', { title: 'Header only' }),
        400,
        'The file has a header line but no data rows.',
      );
    });

    it('rejects a file whose lines end in carriage returns alone, small or large', async () => {
      const message =
        'The file ends its lines with carriage returns (CR) only. Save it with LF or CRLF line endings and upload it again.';
      await expectRejected(() => postCsv(agent, 'a,b\r1,2\r3,4\r', { title: 'Old Mac' }), 400, message);
      const large = `id,name\r${'1,some name here\r'.repeat(80_000)}`;
      await expectRejected(() => postCsv(agent, large, { title: 'Old Mac, large' }), 400, message);
      await expectRejected(
        () => postCsv(agent, 'a,b\r', { title: 'Header only, CR' }),
        400,
        'The file has a header line but no data rows.',
      );
    });

    it('rejects a file without a header line', async () => {
      await expectRejected(
        () => postCsv(agent, '1,2,3\n4,5,6\n', { title: 'No header' }),
        400,
        'The file has no header: line 1 must hold the column names.',
      );
    });

    it('rejects a ragged row naming its line', async () => {
      await expectRejected(
        () => postCsv(agent, 'a,b\n1,2\n"x\ny",3\n4,5,6\n', { title: 'Ragged' }),
        400,
        'Line 5 has 3 fields, but the header has 2 columns.',
      );
      await expectRejected(
        () => postCsv(agent, 'a,b\n1\n', { title: 'Short' }),
        400,
        'Line 2 has 1 field, but the header has 2 columns.',
      );
    });

    it('rejects an unclosed quote naming its line', async () => {
      await expectRejected(
        () => postCsv(agent, 'a,b\n1,2\n3,"open\n', { title: 'Open quote' }),
        400,
        'Line 3: a quoted field is never closed (missing closing quote).',
      );
    });

    it('rejects invalid UTF-8 naming the line', async () => {
      const latin1 = Buffer.concat([
        Buffer.from('city,n\nBerlin,1\nK'),
        Buffer.from([0xf6]),
        Buffer.from('ln,2\n'),
      ]);
      await expectRejected(
        () => postCsv(agent, latin1, { title: 'Latin-1' }),
        400,
        'Line 3 is not valid UTF-8 text. Save the file as UTF-8 and upload it again.',
      );
    });

    it('rejects mixed line endings naming the line', async () => {
      await expectRejected(
        () => postCsv(agent, 'a,b\r\n1,2\r\n3,4\n', { title: 'Mixed' }),
        400,
        /^Line 3 ends with LF/,
      );
    });

    it('rejects binary content and files that are not .csv', async () => {
      const png = Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000', 'hex');
      await expectRejected(
        () => postCsv(agent, png, { title: 'Image' }),
        415,
        'The file is not a CSV text file (it contains binary data).',
      );
      await expectRejected(
        () => postCsv(agent, 'a\n1\n', { title: 'Text' }, 'notes.txt'),
        415,
        'Only CSV files (.csv), Excel workbooks (.xlsx) and Parquet files (.parquet) can be uploaded.',
      );
    });

    it('rejects a second file field', async () => {
      await expectRejected(
        () =>
          agent
            .post('/api/assets/upload-csv')
            .set('Origin', TEST_ORIGIN)
            .field('title', 'Two files')
            .attach('file', Buffer.from('a\n1\n'), 'one.csv')
            .attach('file', Buffer.from('a\n2\n'), 'two.csv'),
        400,
        'Send exactly one CSV file, in the form field "file".',
      );
    });

    it('rejects unknown form fields after staging the file, and rolls it back', async () => {
      await expectRejected(
        () => postCsv(agent, 'a\n1\n', { title: 'Extra', owner: 'someone' } as never, 'a.csv', true),
        400,
        'property owner should not exist',
      );
    });
  });
});

describe('POST assets/upload-csv: size limit', () => {
  let testApp: TestApp;

  beforeAll(async () => {
    testApp = await createTestApp({ MAX_UPLOAD_MB: '1' });
  });
  afterAll(() => testApp.close());

  it.each([
    ['while streaming (multer limit)', 1.2],
    ['from the declared length, before reading', 3],
  ])(
    'answers 413 naming the limit for a file over MAX_UPLOAD_MB %s, leaving nothing behind',
    async (_how, megabytes) => {
      const { agent, user } = await createLoggedInUser(testApp);
      const row = 'some text value,12345\n';
      const csv = 'label,n\n' + row.repeat(Math.ceil((megabytes * 1024 * 1024) / row.length));
      const response = await postCsv(agent, csv, { title: 'Too big' });
      expect(response.status).toBe(413);
      expect(response.body.error).toBe('The file is larger than the upload limit of 1 MB.');
      expect(await assetCount(testApp.dataSource, user.id)).toBe(0);
      expect(await orphanDatasetTables(testApp.dataSource)).toEqual([]);
      await expectNoIngestConnections(testApp);
    },
  );

  it('accepts a file just under the limit', async () => {
    const { agent } = await createLoggedInUser(testApp);
    const row = 'some text value,12345\n';
    const csv = 'label,n\n' + row.repeat(Math.floor((0.9 * 1024 * 1024) / row.length));
    const response = await postCsv(agent, csv, { title: 'Fits' });
    expect(response.status).toBe(201);
  });
});
