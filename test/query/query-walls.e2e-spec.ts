import { Client } from 'pg';
import type { Test } from 'supertest';
import type TestAgent from 'supertest/lib/agent';
import { PaymentEventsService } from '../../src/access/payments/payment-events.service';
import { RateLimiterService } from '../../src/common/rate-limit/rate-limiter.service';
import { QueryRoles } from '../../src/query/run/query-roles.service';
import { uploadDataset } from '../factories/asset.factory';
import { createConnector } from '../factories/connector.factory';
import { createLoggedInUser, TestUser } from '../factories/user.factory';
import { createTestApp, TEST_ORIGIN, TestApp } from '../support/test-app';

type Agent = TestAgent<Test>;
type Caller = { user: TestUser; agent: Agent };

const missing = (name: string) => `relation "${name}" does not exist`;

/**
 * What holds even when a query got past the check: the database roles and their grants, the
 * connections a query used, access that changes between two queries, who may call, and the
 * limits that keep one user from taking the server.
 */
describe('POST /api/query: the walls behind the check', () => {
  let testApp: TestApp;
  let roles: QueryRoles;
  let owner: Caller;
  let other: Caller;
  let ownId: string;
  let mine: string;

  beforeAll(async () => {
    testApp = await createTestApp({ QUERY_TIMEOUT_MS: '3000', QUERY_MAX_ROWS: '1000' });
    roles = testApp.app.get(QueryRoles);
    owner = await createLoggedInUser(testApp);
    other = await createLoggedInUser(testApp);
    ownId = await uploadDataset(owner.agent, { title: 'Walls own', is_public: 'false' });
    mine = (await owner.agent.get(`/api/assets/${ownId}`).expect(200)).body.readable_name;
  });
  afterAll(() => testApp.close());

  const query = (agent: Agent, body: object) =>
    agent.post('/api/query').set('Origin', TEST_ORIGIN).send(body);
  const tableOf = async (assetId: string): Promise<string> =>
    (await testApp.dataSource.query(`SELECT table_name FROM assets WHERE id = $1`, [assetId]))[0].table_name;
  const membershipsOf = async (role: string): Promise<string[]> =>
    (
      await testApp.dataSource.query(
        `SELECT granted.rolname FROM pg_auth_members m
           JOIN pg_roles granted ON granted.oid = m.roleid JOIN pg_roles grantee ON grantee.oid = m.member
          WHERE grantee.rolname = $1 ORDER BY 1`,
        [role],
      )
    ).map((row: { rolname: string }) => row.rolname);

  describe('the roles have only the rights they need', () => {
    beforeAll(async () => {
      await query(owner.agent, { sql: `SELECT count(*) FROM ${mine}` }).expect(200);
    });

    it('gives each user a role of its own that logs in, with no rights but its readers, and no shared login', async () => {
      const userRole = await roles.userRole(owner.user.id);
      const [attributes] = await testApp.dataSource.query(
        `SELECT rolsuper, rolcreaterole, rolcreatedb, rolreplication, rolbypassrls, rolinherit, rolcanlogin
           FROM pg_roles WHERE rolname = $1`,
        [userRole],
      );
      expect(attributes).toEqual({
        rolsuper: false,
        rolcreaterole: false,
        rolcreatedb: false,
        rolreplication: false,
        rolbypassrls: false,
        rolinherit: true,
        rolcanlogin: true,
      });
      // Nobody is a member of a user's role: no other role's session can switch into it.
      const [{ members }] = await testApp.dataSource.query(
        `SELECT count(*)::int AS members FROM pg_auth_members m JOIN pg_roles r ON r.oid = m.roleid
          WHERE r.rolname = $1`,
        [userRole],
      );
      expect(members).toBe(0);
      const prefix = userRole.replace(/_u_[0-9a-f]{32}$/, '');
      const shared = await testApp.dataSource.query(`SELECT 1 FROM pg_roles WHERE rolname = $1`, [
        `${prefix}_login`,
      ]);
      expect(shared).toEqual([]);
    });

    it('lets a user role read only through reader roles, each with SELECT on one table', async () => {
      const userRole = await roles.userRole(owner.user.id);
      const [user] = await testApp.dataSource.query(
        `SELECT rolcanlogin, rolsuper, rolcreaterole, rolcreatedb FROM pg_roles WHERE rolname = $1`,
        [userRole],
      );
      expect(user).toEqual({ rolcanlogin: true, rolsuper: false, rolcreaterole: false, rolcreatedb: false });
      const readers = await membershipsOf(userRole);
      expect(readers).toHaveLength(1);
      expect(await membershipsOf(readers[0])).toEqual([]);
      const grants = await testApp.dataSource.query(
        `SELECT table_schema, table_name, privilege_type FROM information_schema.table_privileges
          WHERE grantee IN ($1, $2)`,
        [userRole, readers[0]],
      );
      expect(grants).toEqual([
        { table_schema: 'data', table_name: await tableOf(ownId), privilege_type: 'SELECT' },
      ]);
      const [{ readable }] = await testApp.dataSource.query(
        `SELECT array_agg(n.nspname || '.' || c.relname ORDER BY 1) AS readable
           FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
          WHERE n.nspname NOT IN ('pg_catalog', 'information_schema') AND c.relkind IN ('r', 'v', 'm', 'p')
            AND has_table_privilege($1, c.oid, 'SELECT')`,
        [userRole],
      );
      expect(readable).toEqual([`data.${await tableOf(ownId)}`]);
      const [database] = await testApp.dataSource.query(
        `SELECT has_database_privilege($1, current_database(), 'TEMPORARY') AS temp,
                has_schema_privilege($1, 'public', 'CREATE') AS public_create,
                has_schema_privilege($1, 'data', 'CREATE') AS data_create`,
        [userRole],
      );
      expect(database).toEqual({ temp: false, public_create: false, data_create: false });
    });

    it('cannot switch from one user role into another, nor read another user’s table with the flag undone', async () => {
      await query(other.agent, { sql: 'SELECT 1' }).expect(200);
      const otherRole = await roles.userRole(other.user.id);
      const client = new Client(roles.connectionAs(await roles.userRole(owner.user.id)));
      await client.connect();
      const asOwner = async (sql: string) => {
        await client.query('BEGIN READ ONLY');
        try {
          await client.query('SET TRANSACTION READ WRITE');
          return await client.query(sql);
        } finally {
          await client.query('ROLLBACK');
        }
      };
      try {
        await expect(asOwner(`SET LOCAL ROLE "${otherRole}"`)).rejects.toThrow(/permission denied/);
        await expect(asOwner(`SELECT set_config('role', '${otherRole}', true)`)).rejects.toThrow(
          /permission denied/,
        );
        await expect(asOwner('RESET ROLE')).resolves.toBeDefined();
        const otherId = await uploadDataset(other.agent, { title: 'Walls other', is_public: 'false' });
        await expect(asOwner(`SELECT * FROM data."${await tableOf(otherId)}"`)).rejects.toThrow(
          /permission denied/,
        );
        await expect(asOwner(`INSERT INTO data."${await tableOf(ownId)}" DEFAULT VALUES`)).rejects.toThrow(
          /permission denied/,
        );
        for (const table of [
          'users',
          'session',
          'access_grants',
          'purchases',
          'connector_instances',
          'api_tokens',
        ])
          await expect(asOwner(`SELECT 1 FROM public.${table} LIMIT 1`)).rejects.toThrow(/permission denied/);
        await expect(asOwner('SELECT * FROM pg_authid')).rejects.toThrow(/permission denied/);
        await expect(asOwner(`SET LOCAL temp_file_limit = -1`)).rejects.toThrow(/permission denied/);
        await expect(asOwner('SET SESSION AUTHORIZATION postgres')).rejects.toThrow(/permission denied/);
      } finally {
        await client.end();
      }
    });

    it('caps memory and temporary files for every user query through the user’s role', async () => {
      const client = new Client(roles.connectionAs(await roles.userRole(owner.user.id)));
      await client.connect();
      try {
        expect((await client.query('SHOW work_mem')).rows[0].work_mem).toBe('64MB');
        expect((await client.query('SHOW temp_file_limit')).rows[0].temp_file_limit).toBe('1GB');
        expect((await client.query('SHOW hash_mem_multiplier')).rows[0].hash_mem_multiplier).toBe('1');
        expect((await client.query('SHOW client_connection_check_interval')).rows[0]).toEqual({
          client_connection_check_interval: '1s',
        });
        expect((await client.query('SHOW default_transaction_read_only')).rows[0]).toEqual({
          default_transaction_read_only: 'on',
        });
      } finally {
        await client.end();
      }
    });
  });

  describe('a connection that ran a user query', () => {
    it('is closed when the query ends, and the app pool is untouched', async () => {
      const userRole = await roles.userRole(owner.user.id);
      await query(owner.agent, { sql: 'SELECT 1 / 0' }).expect(400);
      await query(owner.agent, { sql: `SELECT count(*) FROM ${mine}` }).expect(200);
      const connectionsOf = async () =>
        (
          await testApp.dataSource.query(
            `SELECT count(*)::int AS open FROM pg_stat_activity WHERE usename = $1 AND pid <> pg_backend_pid()`,
            [userRole],
          )
        )[0].open as number;
      // The server ends a backend a moment after its client closed the connection.
      for (let tries = 0; (await connectionsOf()) > 0; tries += 1) {
        if (tries === 200)
          throw new Error(`${await connectionsOf()} connection(s) of the user's role still open`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      const [{ current }] = await testApp.dataSource.query('SELECT current_user AS current');
      expect(current).not.toMatch(/^dq[0-9]+_/);
    });
  });

  describe('access that changes reaches the very next query', () => {
    const holderOfPublic = async () => {
      const holder = await createLoggedInUser(testApp);
      const assetId = await uploadDataset(owner.agent, { title: `Walls shared ${Date.now()}` });
      const name = (await owner.agent.get(`/api/assets/${assetId}`).expect(200)).body.readable_name;
      await holder.agent.post('/api/access/grant').set('Origin', TEST_ORIGIN).send({ assetId }).expect(200);
      await query(holder.agent, { sql: `SELECT count(*) FROM ${name}` }).expect(200);
      return { holder, assetId, name };
    };

    it('takes a deleted dataset out of its holder’s next query and role', async () => {
      const { holder, assetId, name } = await holderOfPublic();
      const holderRole = await roles.userRole(holder.user.id);
      expect(await membershipsOf(holderRole)).toHaveLength(1);
      const removed = await owner.agent
        .delete(`/api/assets/${assetId}`)
        .set('Origin', TEST_ORIGIN)
        .expect(200);
      expect(removed.body.holders_lost_access).toBe(1);
      const gone = await query(holder.agent, { sql: `SELECT count(*) FROM ${name}` }).expect(400);
      expect(gone.body.error).toBe(missing(name));
      expect(await membershipsOf(holderRole)).toEqual([]);
    });

    it('takes a refunded purchase out of the buyer’s next query and role', async () => {
      const { holder, assetId, name } = await holderOfPublic();
      const [purchase] = await testApp.dataSource.query(
        `INSERT INTO purchases (user_id, asset_id, amount, currency, status, provider, payment_intent_id)
         VALUES ($1, $2, 5, 'usd', 'paid', 'stripe', $3) RETURNING id`,
        [holder.user.id, assetId, `pi_walls_${Date.now()}`],
      );
      await testApp.app.get(PaymentEventsService).handle({
        id: `evt_walls_${Date.now()}`,
        type: 'charge.refunded',
        data: { object: { refunded: true, metadata: { purchase_id: purchase.id } } },
      } as never);
      const gone = await query(holder.agent, { sql: `SELECT count(*) FROM ${name}` }).expect(400);
      // Still a public listing: the answer says it is not held, and where to get it.
      expect(gone.body.error).toMatch(/^You don't hold .+: get it to query it$/);
      expect(await membershipsOf(await roles.userRole(holder.user.id))).toEqual([]);
    });
  });

  describe('connector tables', () => {
    it('are the owner’s alone, by readable name', async () => {
      const connector = await createConnector(testApp.dataSource, { title: 'Walls connector' });
      const outputTable = `walls_${Date.now()}`;
      await testApp.dataSource.query(`CREATE TABLE data."${outputTable}" (region text, amount int)`);
      await testApp.dataSource.query(`INSERT INTO data."${outputTable}" VALUES ('north', 1), ('south', 2)`);
      const [instance] = await testApp.dataSource.query(
        `INSERT INTO connector_instances (connector_id, owner_id, title, output_table_name)
         VALUES ($1, $2, 'Walls weather', $3) RETURNING readable_name`,
        [connector.id, other.user.id, outputTable],
      );
      const name = instance.readable_name as string;
      const own = await query(other.agent, { sql: `SELECT sum(amount) FROM ${name}` }).expect(200);
      expect(own.body.rows).toEqual([[3]]);
      const listed = (await other.agent.get('/api/query/tables').expect(200)).body;
      expect(listed.find((table: { name: string }) => table.name === name)).toMatchObject({
        kind: 'connector',
      });
      const foreign = await query(owner.agent, { sql: `SELECT sum(amount) FROM ${name}` }).expect(400);
      expect(foreign.body.error).toBe(missing(name));
      const theirs = (await owner.agent.get('/api/query/tables').expect(200)).body;
      expect(theirs.map((table: { name: string }) => table.name)).not.toContain(name);
    });
  });

  describe('who may call', () => {
    const keyOf = async (caller: Caller): Promise<string> =>
      (
        await caller.agent
          .post('/api/dev/apikey')
          .set('Origin', TEST_ORIGIN)
          .send({ email: caller.user.email })
          .expect(200)
      ).body.api_key;

    it('refuses an API key after it was rotated', async () => {
      const caller = await createLoggedInUser(testApp);
      const key = await keyOf(caller);
      const sql = 'SELECT 1';
      await testApp.http.post('/api/query').set('X-API-Key', key).send({ sql }).expect(200);
      await caller.agent
        .post('/api/users/change-password')
        .set('Origin', TEST_ORIGIN)
        .send({
          current_password: caller.user.password,
          new_password: 'walls-new-password-2026',
          rotate_api_key: true,
        })
        .expect(200);
      const refused = await testApp.http.post('/api/query').set('X-API-Key', key).send({ sql }).expect(401);
      expect(refused.body.error).toBe('Invalid API key');
      await testApp.http.get('/api/query/tables').query({ api_key: key }).expect(401);
    });

    it('refuses the key and the session of a deleted account', async () => {
      const caller = await createLoggedInUser(testApp);
      const key = await keyOf(caller);
      await caller.agent
        .delete('/api/users/me')
        .set('Origin', TEST_ORIGIN)
        .send({ password: caller.user.password })
        .expect(200);
      const byKey = await testApp.http
        .post('/api/query')
        .set('X-API-Key', key)
        .send({ sql: 'SELECT 1' })
        .expect(401);
      expect(byKey.body.error).toBe('Invalid API key');
      await query(caller.agent, { sql: 'SELECT 1' }).expect(401);
      await caller.agent.get('/api/query/tables').expect(401);
    });

    it('runs another user’s key as that user, never as the owner', async () => {
      const key = await keyOf(other);
      const response = await testApp.http
        .post('/api/query')
        .set('X-API-Key', key)
        .send({ sql: `SELECT * FROM ${mine}` })
        .expect(400);
      expect(response.body.error).toBe(missing(mine));
    });
  });

  describe('each query is a read in the owner’s activity view', () => {
    const streamRequestsToday = async (agent: Agent, assetId: string): Promise<number> => {
      const { days } = (await agent.get(`/api/assets/${assetId}/activity`).expect(200)).body;
      return days.at(-1).stream_requests;
    };

    it('counts the owner’s and a holder’s queries, once per query, and nothing for a refused one', async () => {
      const assetId = await uploadDataset(owner.agent, { title: `Walls counted ${Date.now()}` });
      const name = (await owner.agent.get(`/api/assets/${assetId}`).expect(200)).body.readable_name;
      const before = await streamRequestsToday(owner.agent, assetId);
      await query(owner.agent, { sql: `SELECT count(*) FROM ${name}` }).expect(200);
      const holder = await createLoggedInUser(testApp);
      await holder.agent.post('/api/access/grant').set('Origin', TEST_ORIGIN).send({ assetId }).expect(200);
      await query(holder.agent, { sql: `SELECT a.name FROM ${name} a JOIN ${name} b USING (name)` }).expect(
        200,
      );
      await query(other.agent, { sql: `SELECT count(*) FROM ${name}` }).expect(400);
      expect(await streamRequestsToday(owner.agent, assetId)).toBe(before + 2);
    });
  });

  describe('limits', () => {
    beforeEach(() =>
      Promise.all(
        [owner, other].map((caller) => testApp.app.get(RateLimiterService).reset(`query:${caller.user.id}`)),
      ),
    );

    it('caps the rows of an answer, streamed, whatever the query makes', async () => {
      const csv = await query(owner.agent, {
        sql: 'SELECT generate_series(1, 1000000000000) AS g',
        format: 'csv',
      }).expect(200);
      expect(csv.text.trimEnd().split('\n')).toHaveLength(1 + 1000);
      const json = await query(owner.agent, {
        sql: 'SELECT generate_series(1, 1000000000000) AS g',
      }).expect(200);
      expect(json.body).toMatchObject({ row_count: 1000, truncated: true });
      const over = await query(owner.agent, { sql: 'SELECT 1', limit: 1001 }).expect(400);
      expect(over.body.error).toBe('limit is at most 1,000');
    });

    it('runs at most two queries of one user at a time', async () => {
      const login = await roles.userRole(owner.user.id);
      const long = 'SELECT count(*) FROM (SELECT generate_series(1, 100000000000)) s';
      // A supertest request starts when awaited: `then` sends both now.
      const running = [1, 2].map(() => query(owner.agent, { sql: long }).then((response) => response));
      const deadline = Date.now() + 10_000;
      for (;;) {
        const [{ active }] = await testApp.dataSource.query(
          `SELECT count(*)::int AS active FROM pg_stat_activity WHERE usename = $1 AND state = 'active'`,
          [login],
        );
        if (active >= 2) break;
        if (Date.now() > deadline)
          throw new Error(
            `the two queries did not start: ${JSON.stringify(await testApp.dataSource.query('SELECT usename, state, query FROM pg_stat_activity'))}`,
          );
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      const third = await query(owner.agent, { sql: 'SELECT 1' }).expect(429);
      expect(third.body.error).toBe('At most 2 queries run at a time: wait for one to finish or cancel it');
      await query(other.agent, { sql: 'SELECT 1' }).expect(200);
      for (const response of await Promise.all(running)) expect(response.status).toBe(400);
      await query(owner.agent, { sql: 'SELECT 1' }).expect(200);
    });

    it('limits queries per minute', async () => {
      for (let count = 0; count < 60; count += 1) await query(other.agent, { sql: 'SELECT 1' }).expect(200);
      const refused = await query(other.agent, { sql: 'SELECT 1' }).expect(429);
      expect(refused.body.error).toBe('Too many queries, please try again in a minute');
    });
  });
});
