import { Client } from 'pg';
import type { Test } from 'supertest';
import type TestAgent from 'supertest/lib/agent';
import { QueryRoles } from '../../src/query/run/query-roles.service';
import { QueryRunner } from '../../src/query/run/query-runner.service';
import { uploadDataset } from '../factories/asset.factory';
import { createLoggedInUser, TestUser } from '../factories/user.factory';
import { createTestApp, TEST_ORIGIN, TestApp } from '../support/test-app';

type Agent = TestAgent<Test>;

const CSV = 'name,amount,note,big\nalpha,1,"",9223372036854775807\nbeta,2,,12\ngamma,3,x,13\n';

describe('POST /api/query: SQL over the tables a user holds', () => {
  let testApp: TestApp;
  let owner: { user: TestUser; agent: Agent };
  let other: { user: TestUser; agent: Agent };
  let datasetId: string;
  let tableName: string;
  let otherTable: string;

  beforeAll(async () => {
    testApp = await createTestApp({ QUERY_TIMEOUT_MS: '1500' });
    owner = await createLoggedInUser(testApp);
    other = await createLoggedInUser(testApp);
    datasetId = await uploadDataset(owner.agent, { title: 'Query sales', is_public: 'false' }, CSV);
    tableName = (await owner.agent.get(`/api/assets/${datasetId}`).expect(200)).body.readable_name;
    const otherId = await uploadDataset(other.agent, { title: 'Other secret', is_public: 'false' });
    otherTable = (await other.agent.get(`/api/assets/${otherId}`).expect(200)).body.readable_name;
  });
  afterAll(() => testApp.close());

  const query = (agent: Agent, body: object) =>
    agent.post('/api/query').set('Origin', TEST_ORIGIN).send(body);

  it('answers columns, exact rows, the count and the time', async () => {
    const response = await query(owner.agent, {
      sql: `SELECT name, amount, note, big FROM ${tableName} ORDER BY amount`,
    }).expect(200);
    expect(response.body.columns).toEqual([
      { name: 'name', type: 'text' },
      { name: 'amount', type: 'int8' },
      { name: 'note', type: 'text' },
      { name: 'big', type: 'numeric' },
    ]);
    expect(response.text).toContain('9223372036854775807');
    expect(response.body.rows.map((row: unknown[]) => row.slice(0, 3))).toEqual([
      ['alpha', 1, ''],
      ['beta', 2, null],
      ['gamma', 3, 'x'],
    ]);
    expect(response.body).toMatchObject({ row_count: 3, truncated: false });
    expect(typeof response.body.elapsed_ms).toBe('number');
  });

  it('aggregates and joins, and says when the limit cut the result', async () => {
    const grouped = await query(owner.agent, {
      sql: `SELECT count(*) AS n, sum(amount) AS total FROM ${tableName} s WHERE s.amount > 1`,
    }).expect(200);
    expect(grouped.body.rows).toEqual([[2, 5]]);
    const cut = await query(owner.agent, { sql: `SELECT * FROM ${tableName}`, limit: 2 }).expect(200);
    expect(cut.body).toMatchObject({ row_count: 2, truncated: true });
    expect(cut.body.columns.map((column: { name: string }) => column.name)).not.toContain('_row_id');
  });

  it('streams CSV with "" for an empty string and nothing for NULL, and JSON Lines', async () => {
    const csv = await query(owner.agent, {
      sql: `SELECT name, note FROM ${tableName} ORDER BY amount`,
      format: 'csv',
    }).expect(200);
    expect(csv.headers['content-type']).toMatch(/^text\/csv/);
    expect(csv.text).toBe('name,note\nalpha,""\nbeta,\ngamma,x\n');
    const lines = await query(owner.agent, {
      sql: `SELECT name, big FROM ${tableName} ORDER BY amount LIMIT 1`,
      format: 'ndjson',
    }).expect(200);
    expect(lines.text).toBe('{"name":"alpha","big":9223372036854775807}\n');
  });

  it('keeps tabs, backslashes, line breaks and quotes, and cuts CSV at the limit', async () => {
    // A closing semicolon and a comment after it: the statement still runs inside COPY.
    const sql =
      `SELECT name, concat('a', chr(9), 'b', chr(92), 'c', chr(10), '"d"') AS odd ` +
      `FROM ${tableName} ORDER BY amount; -- the end`;
    const odd = 'a\tb\\c\n"d"';
    const json = await query(owner.agent, { sql }).expect(200);
    expect(json.body.rows[0]).toEqual(['alpha', odd]);
    const csv = await query(owner.agent, { sql, format: 'csv', limit: 2 }).expect(200);
    const quoted = `"${odd.replaceAll('"', '""')}"`;
    expect(csv.text).toBe(`name,odd\nalpha,${quoted}\nbeta,${quoted}\n`);
  });

  it('names repeated columns apart in the CSV header, and answers EXPLAIN as CSV', async () => {
    const csv = await query(owner.agent, {
      sql: `SELECT amount AS n, amount + 1 AS n FROM ${tableName} ORDER BY amount`,
      format: 'csv',
    }).expect(200);
    expect(csv.text).toBe('n,n_2\n1,2\n2,3\n3,4\n');
    const plan = await query(owner.agent, {
      sql: `EXPLAIN (COSTS OFF) SELECT * FROM ${tableName}`,
      format: 'csv',
    }).expect(200);
    expect(plan.text).toMatch(/^QUERY PLAN\nSeq Scan on /);
  });

  it('fails a table the caller does not hold exactly like one that does not exist', async () => {
    const foreign = await query(owner.agent, { sql: `SELECT * FROM ${otherTable}` }).expect(400);
    const missing = await query(owner.agent, { sql: 'SELECT * FROM no_such_table_anywhere' }).expect(400);
    expect(foreign.body).toEqual({
      error: `relation "${otherTable}" does not exist`,
      message: `relation "${otherTable}" does not exist`,
      statusCode: 400,
      position: 15,
    });
    expect(missing.body.error).toBe('relation "no_such_table_anywhere" does not exist');
    const stranger = await query(other.agent, { sql: `SELECT * FROM ${tableName}` }).expect(400);
    expect(stranger.body.error).toBe(`relation "${tableName}" does not exist`);
  });

  it.each([
    ['SELECT * FROM users', 'relation "users" does not exist'],
    ['SELECT * FROM session', 'relation "session" does not exist'],
    [
      'SELECT * FROM public.api_tokens',
      'Name tables without a schema: your tables are listed beside the editor',
    ],
    [
      'SELECT * FROM pg_catalog.pg_authid',
      'Name tables without a schema: your tables are listed beside the editor',
    ],
    ["SELECT set_config('role', 'postgres', false)", 'function set_config is not allowed in a query'],
    ['SET ROLE postgres', 'VariableSet is not allowed: only reading queries (SELECT) run here'],
    ['RESET ROLE', 'VariableSet is not allowed: only reading queries (SELECT) run here'],
    [
      'SET SESSION AUTHORIZATION postgres',
      'VariableSet is not allowed: only reading queries (SELECT) run here',
    ],
    ['SELECT pg_sleep(5)', 'function pg_sleep is not allowed in a query'],
    ["SELECT pg_read_file('/etc/passwd')", 'function pg_read_file is not allowed in a query'],
    [
      'CREATE TEMP TABLE t AS SELECT 1',
      'CreateTableAs is not allowed: only reading queries (SELECT) run here',
    ],
  ])('refuses %s', async (sql, message) => {
    const response = await query(owner.agent, { sql }).expect(400);
    expect(response.body.error).toBe(message);
  });

  it('refuses a data-modifying statement hidden in a WITH', async () => {
    const response = await query(owner.agent, {
      sql: `WITH gone AS (DELETE FROM ${tableName} RETURNING *) SELECT * FROM gone`,
    }).expect(400);
    expect(response.body.error).toBe(
      'Only SELECT may stand in a WITH clause: only reading queries are allowed',
    );
    expect((await query(owner.agent, { sql: `SELECT count(*) FROM ${tableName}` })).body.rows).toEqual([[3]]);
  });

  it('reports PostgreSQL’s own errors with the position in the text written', async () => {
    const response = await query(owner.agent, { sql: `SELECT nope FROM ${tableName}` }).expect(400);
    expect(response.body.error).toBe('column "nope" does not exist');
    expect(response.body.position).toBe(8);
  });

  it('stops a query at the statement limit', async () => {
    const response = await query(owner.agent, {
      sql: 'SELECT count(*) FROM generate_series(1, 1000000000)',
    }).expect(400);
    expect(response.body.error).toBe('The query ran longer than 1.5 s and was stopped');
  });

  it('lists the caller’s tables with their columns, and nobody else’s', async () => {
    const mine = await owner.agent.get('/api/query/tables').expect(200);
    const entry = mine.body.find((table: { name: string }) => table.name === tableName);
    expect(entry).toMatchObject({ title: 'Query sales', kind: 'dataset' });
    expect(entry.columns).toEqual([
      { name: 'name', type: 'text' },
      { name: 'amount', type: 'int8' },
      { name: 'note', type: 'text' },
      { name: 'big', type: 'numeric' },
    ]);
    expect(mine.body.map((table: { name: string }) => table.name)).not.toContain(otherTable);
  });

  it('takes the personal API key and a token with the query scope, not a stream-only token', async () => {
    const key = (
      await owner.agent.post('/api/dev/apikey').set('Origin', TEST_ORIGIN).send({ email: owner.user.email })
    ).body.api_key;
    const sql = `SELECT count(*) FROM ${tableName}`;
    await testApp.http.post('/api/query').set('X-API-Key', key).send({ sql }).expect(200);
    await testApp.http.post('/api/query').query({ api_key: key }).send({ sql }).expect(200);
    const token = async (scopes: string[]) =>
      (
        await owner.agent
          .post('/api/users/tokens')
          .set('Origin', TEST_ORIGIN)
          .send({ name: scopes.join('+'), scopes })
      ).body.token;
    await testApp.http
      .post('/api/query')
      .set('X-API-Key', await token(['query']))
      .send({ sql })
      .expect(200);
    const refused = await testApp.http
      .post('/api/query')
      .set('X-API-Key', await token(['stream']))
      .send({ sql })
      .expect(403);
    expect(refused.body.error).toBe('This API token may not run queries (it lacks the query scope)');
    expect((await testApp.http.post('/api/query').send({ sql }).expect(401)).body.error).toBe(
      'Please log in to continue',
    );
  });

  it('takes a removed access out of the very next query, in the database role too', async () => {
    const buyer = await createLoggedInUser(testApp);
    const publicId = await uploadDataset(owner.agent, { title: 'Query public' });
    const name = (await owner.agent.get(`/api/assets/${publicId}`).expect(200)).body.readable_name;
    await buyer.agent
      .post('/api/access/grant')
      .set('Origin', TEST_ORIGIN)
      .send({ assetId: publicId })
      .expect(200);
    await query(buyer.agent, { sql: `SELECT count(*) FROM ${name}` }).expect(200);
    const role = await testApp.app.get(QueryRoles).userRole(buyer.user.id);
    const memberships = () =>
      testApp.dataSource.query(
        `SELECT 1 FROM pg_auth_members m JOIN pg_roles r ON r.oid = m.member WHERE r.rolname = $1`,
        [role],
      );
    expect(await memberships()).toHaveLength(1);
    await buyer.agent
      .post('/api/access/remove')
      .set('Origin', TEST_ORIGIN)
      .send({ assetId: publicId })
      .expect(200);
    const gone = await query(buyer.agent, { sql: `SELECT count(*) FROM ${name}` }).expect(400);
    // Still a public listing: the answer says it is not held, and where to get it.
    expect(gone.body.error).toMatch(/^You don't hold .+: get it to query it$/);
    expect(await memberships()).toHaveLength(0);
  });

  describe('the grants are the wall, whatever gets past the check', () => {
    it('lets the user role read only its own tables: not app tables, not another user’s, no writes, no TEMP', async () => {
      await query(owner.agent, { sql: `SELECT count(*) FROM ${tableName}` }).expect(200);
      const roles = testApp.app.get(QueryRoles);
      const client = new Client(roles.connectionAs(await roles.userRole(owner.user.id)));
      await client.connect();
      const attempt = async (sql: string) => {
        await client.query('BEGIN');
        try {
          await client.query('SET TRANSACTION READ WRITE');
          return await client.query(sql);
        } finally {
          await client.query('ROLLBACK');
        }
      };
      try {
        const ownTable = (
          await testApp.dataSource.query(`SELECT table_name FROM assets WHERE id = $1`, [datasetId])
        )[0].table_name;
        const foreignTable = (
          await testApp.dataSource.query(`SELECT table_name FROM assets WHERE readable_name = $1`, [
            otherTable,
          ])
        )[0].table_name;
        await expect(attempt(`SELECT count(*) FROM data."${ownTable}"`)).resolves.toBeDefined();
        await expect(attempt(`SELECT * FROM data."${foreignTable}"`)).rejects.toThrow(/permission denied/);
        await expect(attempt('SELECT * FROM public.users')).rejects.toThrow(/permission denied/);
        await expect(attempt('SELECT * FROM public.api_tokens')).rejects.toThrow(/permission denied/);
        await expect(attempt(`DELETE FROM data."${ownTable}"`)).rejects.toThrow(/permission denied/);
        await expect(attempt('CREATE TEMP TABLE t (x int)')).rejects.toThrow(/permission denied/);
        await expect(attempt('CREATE TABLE data.t (x int)')).rejects.toThrow(/permission denied/);
      } finally {
        await client.end();
      }
    });

    it('runs nothing outside a read-only transaction', async () => {
      const roles = testApp.app.get(QueryRoles);
      const login = roles.connectionAs(await roles.userRole(owner.user.id));
      const runner = testApp.app.get(QueryRunner);
      const ownTable = (
        await testApp.dataSource.query(`SELECT table_name FROM assets WHERE id = $1`, [datasetId])
      )[0].table_name;
      // A row lock is a write, and unlike DELETE it can stand where the runner puts a statement.
      await expect(
        runner.open(login, `SELECT * FROM data."${ownTable}" FOR UPDATE`, {
          timeoutMs: 1000,
          rowLimit: 10,
          explain: false,
          memoryBudgetKb: 256 * 1024,
          output: 'rows',
          slots: { userKey: owner.user.id, maxConcurrent: 4, queueMs: 1000 },
        }),
      ).rejects.toThrow(/read-only transaction|permission denied/);
    });
  });
});
