import type { Test } from 'supertest';
import type TestAgent from 'supertest/lib/agent';
import { ColumnProfileService } from '../../src/assets/ingest/column-profile.service';
import { formerEntitySetName } from '../../src/odata/odata-entity-set';
import { postCsv } from '../factories/asset.factory';
import { createLoggedInUser } from '../factories/user.factory';
import { parseCsv } from '../stream/stream.factory';
import { createTestApp, TEST_ORIGIN, TestApp } from '../support/test-app';

/**
 * One file, every way in and out: a quoted empty field is an empty string, an unquoted one NULL
 * (in a number column both are NULL: an empty string is no number); a timestamp written without
 * offset comes back with the same digits and no offset, one written with an offset as an instant.
 */
const CSV = [
  'id,note,score,seen_at,stamped_at',
  '1,"",1.5,2025-11-17 05:11:07.758,2024-03-10T09:30:00+02:00',
  '2,,"",2025-03-30 02:30:00,2024-03-10T09:30:00Z',
  '3,x,,2025-11-17T23:59:59,',
].join('\n');

const ROWS = [
  {
    id: 1,
    note: '',
    score: 1.5,
    seen_at: '2025-11-17T05:11:07.758',
    stamped_at: '2024-03-10T07:30:00+00:00',
  },
  { id: 2, note: null, score: null, seen_at: '2025-03-30T02:30:00', stamped_at: '2024-03-10T09:30:00+00:00' },
  { id: 3, note: 'x', score: null, seen_at: '2025-11-17T23:59:59', stamped_at: null },
];

describe('exact values: empty is not null, naive timestamps stay naive', () => {
  let testApp: TestApp;
  let agent: TestAgent<Test>;
  let apiKey: string;
  let id: string;

  beforeAll(async () => {
    testApp = await createTestApp();
    const owner = await createLoggedInUser(testApp, { name: 'Exact Analyst' });
    agent = owner.agent;
    const upload = await postCsv(agent, CSV, { title: 'Exact values', is_public: 'false' });
    expect(upload.status).toBe(201);
    id = upload.body.id;
    const key = await agent
      .post('/api/dev/apikey')
      .set('Origin', TEST_ORIGIN)
      .send({ email: owner.user.email })
      .expect(200);
    apiKey = key.body.api_key;
    await testApp.app.get(ColumnProfileService).settled();
  });
  afterAll(() => testApp.close());

  const rowsOf = async (datasetId: string) =>
    (await agent.get(`/api/assets/${datasetId}/data`).query({ limit: 100 }).expect(200)).body.rows;

  it('types naive timestamps as timestamp and those with offsets as timestamptz', async () => {
    const detail = await agent.get(`/api/assets/${id}`).expect(200);
    expect(detail.body.columns.map((column: { type: string }) => column.type)).toEqual([
      'integer',
      'text',
      'numeric',
      'timestamp',
      'timestamptz',
    ]);
  });

  it('keeps a column mixing naive and offset timestamps as text, each value as written', async () => {
    const upload = await postCsv(agent, 'at\n2025-11-17 05:11:07\n2025-11-17T05:11:07+02:00\n', {
      title: 'Mixed times',
    });
    expect(upload.status).toBe(201);
    const detail = await agent.get(`/api/assets/${upload.body.id}`).expect(200);
    expect(detail.body.columns[0].type).toBe('text');
    expect(await rowsOf(upload.body.id)).toEqual([
      { at: '2025-11-17 05:11:07' },
      { at: '2025-11-17T05:11:07+02:00' },
    ]);
  });

  it('answers the grid rows with "" apart from null and naive timestamps without offset', async () => {
    expect(await rowsOf(id)).toEqual(ROWS);
  });

  it('filters a naive column by the digits written and refuses an offset it would drop', async () => {
    const filtered = await agent
      .get(`/api/assets/${id}/data`)
      .query({ filter: 'seen_at:gte:2025-11-17 05:11:07.758' })
      .expect(200);
    expect(filtered.body.rows.map((row: { id: number }) => row.id)).toEqual([1, 3]);
    const refused = await agent
      .get(`/api/assets/${id}/data`)
      .query({ filter: 'seen_at:gte:2025-11-17T05:11:07Z' })
      .expect(400);
    expect(refused.body.message).toBe(
      'Filter on "seen_at": "2025-11-17T05:11:07Z" is not a date or time without offset (ISO 8601).',
    );
  });

  it('profiles empty strings apart from nulls', async () => {
    const detail = await agent.get(`/api/assets/${id}`).expect(200);
    const note = detail.body.profile.find((column: { name: string }) => column.name === 'note');
    expect(note).toMatchObject({ nullShare: 1 / 3, emptyStringShare: 1 / 3, distinctCount: 2 });
    const score = detail.body.profile.find((column: { name: string }) => column.name === 'score');
    expect(score).toMatchObject({ nullShare: 2 / 3 });
    expect(score.emptyStringShare).toBeUndefined();
    const seen = detail.body.profile.find((column: { name: string }) => column.name === 'seen_at');
    expect(seen).toMatchObject({ min: '2025-03-30T02:30:00', max: '2025-11-17T23:59:59' });
  });

  it('keeps "" and NULL apart on replace and append, in the dataset\'s types', async () => {
    const refresh = (csv: string, mode: string) =>
      agent
        .post(`/api/assets/${id}/refresh`)
        .set('Origin', TEST_ORIGIN)
        .field('mode', mode)
        .attach('file', Buffer.from(csv), 'next.csv');
    await refresh(CSV, 'replace').expect(200);
    expect(await rowsOf(id)).toEqual(ROWS);
    await refresh('id,note,score,seen_at,stamped_at\n4,"","",2025-01-01 00:00:01,\n5,,,,\n', 'append').expect(
      200,
    );
    expect((await rowsOf(id)).slice(3)).toEqual([
      { id: 4, note: '', score: null, seen_at: '2025-01-01T00:00:01', stamped_at: null },
      { id: 5, note: null, score: null, seen_at: null, stamped_at: null },
    ]);
  });

  it('streams JSON and NDJSON with "" apart from null and naive timestamps as written', async () => {
    const json = await testApp.http.get(`/api/stream/data/${id}`).query({ api_key: apiKey }).expect(200);
    expect(JSON.parse(json.text).slice(0, 3)).toEqual(ROWS);
    const ndjson = await testApp.http
      .get(`/api/stream/data/${id}`)
      .query({ api_key: apiKey, format: 'ndjson', limit: 3 })
      .expect(200);
    expect(
      ndjson.text
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line)),
    ).toEqual(ROWS);
  });

  it('streams CSV with an empty string written "" and NULL as nothing', async () => {
    const csv = await testApp.http
      .get(`/api/stream/data/${id}`)
      .query({ api_key: apiKey, format: 'csv', limit: 3 })
      .expect(200);
    expect(csv.text.split('\n').slice(1, 4)).toEqual([
      '1,"",1.5,2025-11-17T05:11:07.758,2024-03-10T07:30:00+00:00',
      '2,,,2025-03-30T02:30:00,2024-03-10T09:30:00+00:00',
      '3,x,,2025-11-17T23:59:59,',
    ]);
    expect(parseCsv(csv.text)[1][1]).toBe('');
    expect(parseCsv(csv.text)[2][1]).toBeNull();
  });

  it("answers OData with the written wall-clock digits and tells eq '' from eq null", async () => {
    const set = formerEntitySetName({ kind: 'asset', id });
    const read = async (filter: string) =>
      (
        await testApp.http
          .get(`/api/odata/${set}`)
          .query({ api_key: apiKey, $filter: filter, $select: 'id,note,seen_at' })
          .expect(200)
      ).body.value;
    expect(await read(`note eq ''`)).toMatchObject([
      { id: 1, note: '', seen_at: expect.stringMatching(/^2025-11-17T05:11:07\.758\+00:00$/) },
      { id: 4, note: '', seen_at: expect.stringMatching(/^2025-01-01T00:00:01\+00:00$/) },
    ]);
    expect((await read('note eq null')).map((row: { id: number }) => row.id)).toEqual([2, 5]);
    // A naive time is compared as written: the digits in the filter are the digits in the file.
    expect((await read('seen_at eq 2025-03-30T02:30:00Z')).map((row: { id: number }) => row.id)).toEqual([2]);
    const metadata = await testApp.http.get('/api/odata/$metadata').query({ api_key: apiKey }).expect(200);
    expect(metadata.text).toMatch(/<Property Name="seen_at" Type="Edm.DateTimeOffset"/);
  });
});
