import type { Test } from 'supertest';
import type TestAgent from 'supertest/lib/agent';
import { expectNoIngestConnections, postCsv } from '../factories/asset.factory';
import { createLoggedInUser, TestUser } from '../factories/user.factory';
import { createTestApp, TEST_ORIGIN, TestApp } from '../support/test-app';
import { expectUnchanged } from './support/footprint';

type Agent = TestAgent<Test>;
interface Answer {
  status: number;
  body: { error?: string };
}

const CSV = 'name,amount\nalpha,1\nbeta,2\n';
const NUL = 'before\u0000after';
const BOUNDARY = 'abuse-boundary';
const MALFORMED = 'The upload was interrupted or malformed; please try again.';
const ONE_FILE = 'Send exactly one CSV file, in the form field "file".';

/** A multipart body written by hand, for shapes no well-behaved client produces. */
function rawMultipart(parts: string[], closed = true): string {
  const body = parts.map((part) => `--${BOUNDARY}\r\n${part}\r\n`).join('');
  return closed ? `${body}--${BOUNDARY}--\r\n` : body;
}
const textPart = (name: string, value: string) =>
  `Content-Disposition: form-data; name="${name}"\r\n\r\n${value}`;
const filePart = (filename: string, content: string) =>
  `Content-Disposition: form-data; name="file"; filename="${filename}"\r\nContent-Type: text/csv\r\n\r\n${content}`;

/**
 * Hostile uploads to POST assets/upload-csv: malformed multipart, hostile form fields, file names,
 * headers and cells, oversized files. Each refused upload answers a 4xx naming the problem and
 * leaves no dataset, no table and no open ingest transaction behind.
 */
describe('abuse: bad CSV uploads', () => {
  let testApp: TestApp;
  let uploader: { user: TestUser; agent: Agent };

  beforeAll(async () => {
    testApp = await createTestApp({ MAX_UPLOAD_MB: '1' });
    uploader = await createLoggedInUser(testApp);
  });
  afterAll(() => testApp.close());

  const raw = (body: string, contentType = `multipart/form-data; boundary=${BOUNDARY}`) =>
    uploader.agent
      .post('/api/assets/upload-csv')
      .set('Origin', TEST_ORIGIN)
      .set('Content-Type', contentType)
      .send(body);

  it.each<{ name: string; send: () => PromiseLike<Answer>; status: number; message: string }>([
    {
      name: 'a multipart body that never ends',
      send: () => raw(rawMultipart([textPart('title', 'T'), filePart('a.csv', CSV)], false)),
      status: 400,
      message: MALFORMED,
    },
    {
      name: 'multipart without a boundary',
      send: () => raw('title=T', 'multipart/form-data'),
      status: 400,
      message: MALFORMED,
    },
    {
      name: 'garbage between boundaries',
      send: () => raw(`--${BOUNDARY}\r\nnot a header line\r\n\r\n--${BOUNDARY}--\r\n`),
      status: 400,
      message: MALFORMED,
    },
    {
      name: 'a JSON body instead of a form',
      send: () =>
        uploader.agent
          .post('/api/assets/upload-csv')
          .set('Origin', TEST_ORIGIN)
          .send({ title: 'T', file: CSV }),
      status: 400,
      message: 'property file should not exist',
    },
    {
      name: 'no file part',
      send: () => raw(rawMultipart([textPart('title', 'T')])),
      status: 400,
      message: 'Add title & CSV file.',
    },
    {
      name: 'two file parts',
      send: () => raw(rawMultipart([textPart('title', 'T'), filePart('a.csv', CSV), filePart('b.csv', CSV)])),
      status: 400,
      message: ONE_FILE,
    },
    {
      name: 'the file in another field',
      send: () =>
        raw(
          rawMultipart([
            textPart('title', 'T'),
            filePart('a.csv', CSV).replace('name="file"', 'name="upload"'),
          ]),
        ),
      status: 400,
      message: ONE_FILE,
    },
    {
      name: 'an executable file name',
      send: () => postCsv(uploader.agent, CSV, { title: 'T' }, 'payload.exe'),
      status: 415,
      message: 'Only CSV files (.csv), Excel workbooks (.xlsx) and Parquet files (.parquet) can be uploaded.',
    },
    {
      name: 'a path-traversal file name without .csv',
      send: () => postCsv(uploader.agent, CSV, { title: 'T' }, '../../../etc/passwd'),
      status: 415,
      message: 'Only CSV files (.csv), Excel workbooks (.xlsx) and Parquet files (.parquet) can be uploaded.',
    },
    {
      name: 'no title',
      send: () => postCsv(uploader.agent, CSV, {}),
      status: 400,
      message: 'Add title & CSV file.',
    },
    {
      name: 'a blank title',
      send: () => postCsv(uploader.agent, CSV, { title: '   ' }),
      status: 400,
      message: 'Add title & CSV file.',
    },
    {
      name: 'a title over 200 characters',
      send: () => postCsv(uploader.agent, CSV, { title: 't'.repeat(201) }),
      status: 400,
      message: 'title must be shorter than or equal to 200 characters',
    },
    {
      name: 'a field over 64 KB',
      send: () => postCsv(uploader.agent, CSV, { title: 'T', description: 'd'.repeat(70_000) }),
      status: 400,
      message: 'The upload form is not acceptable: Field value too long.',
    },
    {
      name: 'a description over 10,000 characters',
      send: () => postCsv(uploader.agent, CSV, { title: 'T', description: 'd'.repeat(10_001) }),
      status: 400,
      message: 'description must be shorter than or equal to 10000 characters',
    },
    {
      name: 'a NUL in the title',
      send: () => postCsv(uploader.agent, CSV, { title: NUL }),
      status: 400,
      message: 'title must not contain the NUL character (\\u0000)',
    },
    {
      name: 'a NUL in the description',
      send: () => postCsv(uploader.agent, CSV, { title: 'T', description: NUL }),
      status: 400,
      message: 'description must not contain the NUL character (\\u0000)',
    },
    {
      name: 'a NUL in the category',
      send: () => postCsv(uploader.agent, CSV, { title: 'T', category: NUL }),
      status: 400,
      message: 'category must not contain the NUL character (\\u0000)',
    },
    {
      name: 'a NUL in a keyword',
      send: () => postCsv(uploader.agent, CSV, { title: 'T', keywords: `ok, ${NUL}` }),
      status: 400,
      message: 'keywords must not contain the NUL character (\\u0000)',
    },
    {
      name: 'a negative price',
      send: () => postCsv(uploader.agent, CSV, { title: 'T', price: '-1' }),
      status: 400,
      message: 'Price must be a non-negative amount with at most two decimals.',
    },
    {
      name: 'an SQL-shaped price',
      send: () => postCsv(uploader.agent, CSV, { title: 'T', price: '0; DROP TABLE assets; --' }),
      status: 400,
      message: 'Price must be a non-negative amount with at most two decimals.',
    },
    {
      name: 'a price beyond the cap (and the column)',
      send: () => postCsv(uploader.agent, CSV, { title: 'T', price: '99999999999' }),
      status: 400,
      message: 'Price must be at most 1,000,000.',
    },
    {
      name: 'is_public that is no yes or no',
      send: () => postCsv(uploader.agent, CSV, { title: 'T', is_public: 'maybe' }),
      status: 400,
      message: 'is_public must be true or false',
    },
    {
      name: 'an owner of its own choosing',
      send: () => postCsv(uploader.agent, CSV, { title: 'T', owner_id: uploader.user.id } as never),
      status: 400,
      message: 'property owner_id should not exist',
    },
    {
      name: 'a bracketed field name',
      send: () => raw(rawMultipart([textPart('title[$ne]', 'T'), filePart('a.csv', CSV)])),
      status: 400,
      message: 'title must be a string',
    },
    {
      name: 'too many form fields',
      send: () =>
        raw(
          rawMultipart([
            ...Array.from({ length: 25 }, (_, index) => textPart(`f${index}`, 'x')),
            filePart('a.csv', CSV),
          ]),
        ),
      status: 400,
      message: 'The upload form is not acceptable: Too many fields.',
    },
    {
      name: 'an empty file',
      send: () => postCsv(uploader.agent, '', { title: 'T' }),
      status: 400,
      message: 'The file is empty.',
    },
    {
      name: 'binary content',
      send: () =>
        postCsv(uploader.agent, Buffer.from([0x4d, 0x5a, 0x90, 0x00, 0x03, 0x00, 0x0a, 0x00]), {
          title: 'T',
        }),
      status: 415,
      message: 'The file is not a CSV text file (it contains binary data).',
    },
    {
      name: 'a NUL byte in a cell',
      send: () => postCsv(uploader.agent, 'name,amount\nalpha,1\x00\n', { title: 'T' }),
      status: 415,
      message: 'The file is not a CSV text file (it contains binary data).',
    },
    {
      name: 'more columns than Postgres allows',
      send: () =>
        postCsv(
          uploader.agent,
          `${Array.from({ length: 1601 }, (_, index) => `c${index}`).join(',')}\n${'1,'.repeat(1600)}1\n`,
          { title: 'T' },
        ),
      status: 400,
      message: 'The file has 1601 columns; at most 1500 are supported.',
    },
    {
      name: 'a file over the 1 MB limit',
      send: () => postCsv(uploader.agent, `name\n${'x'.repeat(1024 * 1024 + 10)}\n`, { title: 'T' }),
      status: 413,
      message: 'The file is larger than the upload limit of 1 MB.',
    },
  ])('refuses $name with $status', async ({ send, status, message }) => {
    const response = await expectUnchanged(testApp.dataSource, [uploader.user.id], send);
    expect({ status: response.status, error: response.body.error }).toEqual({ status, error: message });
    await expectNoIngestConnections(testApp);
  });

  it('refuses a declared body far over the limit before reading it', async () => {
    const response = await expectUnchanged(testApp.dataSource, [uploader.user.id], () =>
      uploader.agent
        .post('/api/assets/upload-csv')
        .set('Origin', TEST_ORIGIN)
        .set('Content-Type', `multipart/form-data; boundary=${BOUNDARY}`)
        .set('Content-Length', String(50 * 1024 * 1024))
        .send(rawMultipart([textPart('title', 'T')]))
        .ok(() => true)
        .catch((error: { response?: Answer; code?: string }) => {
          // The server may close the connection as soon as it has answered.
          if (error.response) return error.response;
          throw error;
        }),
    );
    expect({ status: response.status, error: response.body.error }).toEqual({
      status: 413,
      error: 'The file is larger than the upload limit of 1 MB.',
    });
  });

  it('stores SQL- and path-shaped headers, cells and file names as inert text in safe columns', async () => {
    const header = [
      '"name""; DROP TABLE users; --"',
      '../../etc/passwd',
      '{{settings.secret}}',
      "x' OR '1'='1",
      '_row_id',
      'ctid',
    ];
    const cells = [
      '"Robert\'); DROP TABLE assets;--"',
      '../../../etc/shadow',
      '{{api_key}}',
      "1' OR '1'='1",
      '7',
      '8',
    ];
    const response = await postCsv(
      uploader.agent,
      `${header.join(',')}\n${cells.join(',')}\n`,
      { title: "Bobby'; DROP TABLE assets; --" },
      '../../../tmp/evil.csv',
    ).expect(201);
    const detail = await uploader.agent.get(`/api/assets/${response.body.id}`).expect(200);
    expect(detail.body.title).toBe("Bobby'; DROP TABLE assets; --");
    const names = detail.body.columns.map((column: { name: string }) => column.name);
    expect(names).toEqual([
      'name_drop_table_users',
      'etc_passwd',
      'settings_secret',
      'x_or_1_1',
      'row_id',
      'ctid_column',
    ]);
    expect(detail.body.columns.map((column: { label: string }) => column.label)).toEqual([
      'name"; DROP TABLE users; --',
      '../../etc/passwd',
      '{{settings.secret}}',
      "x' OR '1'='1",
      '_row_id',
      'ctid',
    ]);
    const rows = await uploader.agent.get(`/api/assets/${response.body.id}/data`).expect(200);
    expect(rows.body.rows).toEqual([
      {
        name_drop_table_users: "Robert'); DROP TABLE assets;--",
        etc_passwd: '../../../etc/shadow',
        settings_secret: '{{api_key}}',
        x_or_1_1: "1' OR '1'='1",
        row_id: 7,
        ctid_column: 8,
      },
    ]);
    const [tables] = await testApp.dataSource.query(
      `SELECT count(*)::int AS count FROM information_schema.tables
        WHERE table_schema = 'public' AND table_name IN ('users', 'assets')`,
    );
    expect(tables.count).toBe(2);
  });
});
