import type { Test } from 'supertest';
import type TestAgent from 'supertest/lib/agent';
import { ColumnProfileService } from '../../src/assets/ingest/column-profile.service';
import { uploadDataset } from '../factories/asset.factory';
import { createLoggedInUser } from '../factories/user.factory';
import { createTestApp, TEST_ORIGIN, TestApp } from '../support/test-app';

type Agent = TestAgent<Test>;

/** 240 rows with gaps in every column, repeated text values and a range of numbers and dates. */
function sampleCsv(): string {
  const cities = ['Berlin', 'Paris', 'Rome', 'Paris', 'Lima', 'Quito', 'Accra'];
  const lines = ['city,amount,price,day,active,note'];
  for (let index = 0; index < 240; index++) {
    const city = index % 11 === 0 ? '' : cities[(index * index) % cities.length];
    const amount = index % 13 === 0 ? '' : String(((index * 37) % 500) - 100);
    const price = index % 17 === 0 ? '' : (((index * 7) % 90) + 0.25).toFixed(2);
    const day =
      index % 19 === 0
        ? ''
        : `2024-${String((index % 12) + 1).padStart(2, '0')}-${String((index % 28) + 1).padStart(2, '0')}`;
    const active = index % 23 === 0 ? '' : index % 3 === 0 ? 'true' : 'false';
    const note = index % 2 === 0 ? '' : `note ${index % 5}`;
    lines.push([city, amount, price, day, active, note].join(','));
  }
  return `${lines.join('\n')}\n`;
}

describe('dataset detail: facts, dictionary, column profile; grid and stream filters', () => {
  let testApp: TestApp;
  let owner: Agent;
  let ownerKey: string;
  let id: string;
  let table: string;

  beforeAll(async () => {
    testApp = await createTestApp();
    const created = await createLoggedInUser(testApp, { name: 'Pia Provider' });
    owner = created.agent;
    id = await uploadSettled(owner, { title: 'Cities', price: '5', licence: 'CC BY 4.0' }, sampleCsv());
    [{ table_name: table }] = await testApp.dataSource.query(`SELECT table_name FROM assets WHERE id = $1`, [
      id,
    ]);
    ownerKey = (
      await owner
        .post('/api/dev/apikey')
        .set('Origin', TEST_ORIGIN)
        .send({ email: created.user.email })
        .expect(200)
    ).body.api_key;
  });
  afterAll(() => testApp.close());

  /** Profiles are computed right after a load commits; these tests read them once stored. */
  const profilesSettled = () => testApp.app.get(ColumnProfileService).settled();
  const uploadSettled = async (...args: Parameters<typeof uploadDataset>) => {
    const id = await uploadDataset(...args);
    await profilesSettled();
    return id;
  };

  const sql = (text: string, params: unknown[] = []) =>
    testApp.dataSource.query(text.replaceAll('$table', `data."${table}"`), params);

  it('shows every visitor the facts: rows, columns with types, size, last update, licence, versions', async () => {
    const detail = (await testApp.http.get(`/api/assets/${id}`).expect(200)).body;
    expect(detail).toMatchObject({
      row_count: 240,
      licence: 'CC-BY-4.0',
      byte_count: Buffer.byteLength(sampleCsv()),
      has_access: false,
      dictionary: {},
    });
    expect(
      detail.columns.map((column: { name: string; type: string }) => [column.name, column.type]),
    ).toEqual([
      ['city', 'text'],
      ['amount', 'integer'],
      ['price', 'numeric'],
      ['day', 'date'],
      ['active', 'boolean'],
      ['note', 'text'],
    ]);
    expect(Date.parse(detail.data_updated_at)).not.toBeNaN();
    expect(detail.versions).toEqual([
      expect.objectContaining({ mode: 'initial', row_count: 240, loaded_by: 'Pia Provider' }),
    ]);
  });

  it('says when the profile lags the rows, and computes again one lost with its process', async () => {
    // The owner reads it: a paid dataset's profile is shown to holders only.
    const detailOf = async () => (await owner.get(`/api/assets/${id}`).expect(200)).body;
    expect((await detailOf()).profile_pending).toBe(false);
    const stored = await sql(`SELECT profile FROM assets WHERE id = $1`, [id]);
    // A load that has just committed: its own job profiles it; a view does not start another.
    await sql(`UPDATE assets SET data_updated_at = now() WHERE id = $1`, [id]);
    expect((await detailOf()).profile_pending).toBe(true);
    await profilesSettled();
    expect((await detailOf()).profile_pending).toBe(true);
    // A load whose process died before its profile was stored: the next view computes it.
    await sql(
      `UPDATE assets SET data_updated_at = now() - interval '10 minutes',
                         profiled_at = now() - interval '20 minutes', profile = '[]' WHERE id = $1`,
      [id],
    );
    expect((await detailOf()).profile_pending).toBe(true);
    await profilesSettled();
    const healed = await detailOf();
    expect(healed.profile_pending).toBe(false);
    expect(healed.profile).toEqual(stored[0].profile);
  });

  it('computes the profile the same as SQL on the same table', async () => {
    const detail = (await owner.get(`/api/assets/${id}`).expect(200)).body;
    for (const column of detail.columns as Array<{ name: string; type: string }>) {
      const profile = detail.profile.find((entry: { name: string }) => entry.name === column.name);
      const [expected] = await sql(
        `SELECT count(*) FILTER (WHERE "${column.name}" IS NULL)::float8 / count(*) AS null_share,
                count(DISTINCT "${column.name}")::int AS distinct_count FROM $table`,
      );
      expect(profile.nullShare).toBeCloseTo(expected.null_share, 10);
      expect(profile.distinctCount).toBe(expected.distinct_count);
      if (['integer', 'numeric'].includes(column.type)) {
        const [range] = await sql(
          `SELECT min("${column.name}")::float8 AS min, max("${column.name}")::float8 AS max FROM $table`,
        );
        expect([profile.min, profile.max]).toEqual([range.min, range.max]);
      }
      if (column.type === 'date') {
        const [range] = await sql(`SELECT min(day)::text AS min, max(day)::text AS max FROM $table`);
        expect([profile.min, profile.max]).toEqual([range.min, range.max]);
      }
      if (['text', 'boolean'].includes(column.type)) {
        const top = await sql(
          `SELECT "${column.name}"::text AS value, count(*)::int AS count FROM $table WHERE "${column.name}" IS NOT NULL
            GROUP BY 1 ORDER BY count(*) DESC, 1 LIMIT 5`,
        );
        expect(profile.topValues).toEqual(top);
      } else {
        expect(profile.topValues).toBeUndefined();
      }
    }
  });

  it('lets the owner describe each column; visitors read the dictionary', async () => {
    await owner
      .patch(`/api/assets/${id}`)
      .set('Origin', TEST_ORIGIN)
      .send({ dictionary: { amount: 'Net units, negative for returns' } })
      .expect(200);
    const detail = (await testApp.http.get(`/api/assets/${id}`).expect(200)).body;
    expect(detail.dictionary).toEqual({ amount: 'Net units, negative for returns' });
  });

  describe('filters', () => {
    const cases: Array<[string[], string]> = [
      [['city:contains:LI'], `strpos(lower(city), 'li') > 0`],
      [['city:equals:Rome'], `city = 'Rome'`],
      [['amount:gte:100', 'amount:lt:300'], `amount >= 100 AND amount < 300`],
      [['price:gt:50.5'], `price > 50.5`],
      [['day:lte:2024-03-15'], `day <= '2024-03-15'`],
      [['day:gt:2024-06-01', 'active:equals:true'], `day > '2024-06-01' AND active`],
      [['city:empty'], `(city IS NULL OR city = '')`],
      [['note:notempty', 'amount:empty'], `note IS NOT NULL AND amount IS NULL`],
    ];

    it.each(cases)('grid %j returns exactly the rows SQL finds (%s)', async (filter, where) => {
      const expected = await sql(`SELECT _row_id FROM $table WHERE ${where} ORDER BY _row_id`);
      const response = await owner.get(`/api/assets/${id}/data`).query({ filter, limit: 1000 }).expect(200);
      expect(response.body.total).toBe(expected.length);
      const all = await sql(`SELECT _row_id, city, amount FROM $table WHERE ${where} ORDER BY _row_id`);
      expect(
        response.body.rows.map((row: { city: string | null; amount: number | null }) => [
          row.city,
          row.amount,
        ]),
      ).toEqual(
        all.map((row: { city: string | null; amount: string | null }) => [
          row.city,
          row.amount === null ? null : Number(row.amount),
        ]),
      );
    });

    it.each(cases)('stream %j returns exactly the rows SQL finds (%s)', async (filter, where) => {
      const expected = await sql(`SELECT city FROM $table WHERE ${where} ORDER BY _row_id`);
      const response = await testApp.http
        .get(`/api/stream/data/${id}`)
        .query({ api_key: ownerKey, filter })
        .expect(200);
      expect(response.body.map((row: { city: string | null }) => row.city)).toEqual(
        expected.map((row: { city: string | null }) => row.city),
      );
    });

    it('filters a visitor’s sample inside its 10 rows only', async () => {
      const firstTen = await sql(
        `SELECT city FROM (SELECT * FROM $table ORDER BY _row_id LIMIT 10) s WHERE city = 'Paris' ORDER BY _row_id`,
      );
      const response = await testApp.http
        .get(`/api/assets/${id}/data`)
        .query({ filter: 'city:equals:Paris' })
        .expect(200);
      expect(response.body.sample).toBe(true);
      expect(response.body.rows.map((row: { city: string }) => row.city)).toEqual(
        firstTen.map((row: { city: string }) => row.city),
      );
      const [{ total }] = await sql(`SELECT count(*)::int AS total FROM $table WHERE city = 'Paris'`);
      expect(firstTen.length).toBeGreaterThan(0);
      expect(total).toBeGreaterThan(firstTen.length);
    });

    it.each([
      ['nope:equals:1', 'Cannot filter on "nope": no such column.'],
      ['amount:equals:ten', 'Filter on "amount": "ten" is not a whole number.'],
      ['price:gt:cheap', 'Filter on "price": "cheap" is not a number.'],
      ['day:lt:yesterday', 'Filter on "day": "yesterday" is not a date (YYYY-MM-DD).'],
      ['active:equals:maybe', 'Filter on "active": "maybe" is not true or false.'],
      ['amount:contains:1', 'Filter on "amount": contains works on text columns only; "amount" is integer.'],
      ['city:gt:B', 'Filter on "city": gt works on numbers and dates only; "city" is text.'],
      [
        'city:like:B',
        'Filter "city:like:B": the operator must be one of contains, equals, gt, gte, lt, lte, empty, notempty (column:operator:value).',
      ],
      ["city:equals:x'; DROP TABLE users; --", null],
    ])('answers %s with a clear 400 (or treats it as plain text)', async (filter, message) => {
      const grid = await owner.get(`/api/assets/${id}/data`).query({ filter });
      const stream = await testApp.http.get(`/api/stream/data/${id}`).query({ api_key: ownerKey, filter });
      if (message === null) {
        expect(grid.status).toBe(200);
        expect(grid.body.rows).toEqual([]);
        expect(stream.status).toBe(200);
        expect(stream.body).toEqual([]);
        return;
      }
      expect([grid.status, grid.body.error]).toEqual([400, message]);
      expect([stream.status, stream.body.error]).toEqual([400, message]);
    });
  });
});
