import type { ConnectorSpec } from '../../src/connectors/dsl/connector-spec.types';
import { FakeUpstream, sendJson, startFakeUpstream } from '../connectors/support/fake-upstream';
import { createConnector } from '../factories/connector.factory';
import { createUser } from '../factories/user.factory';
import { AppProcess, stopAllApps } from './support/app-process';
import { createReliabilityDatabase, ReliabilityDatabase, strayDataTables, waitFor } from './support/database';
import { HttpClient } from './support/http-client';

interface Event {
  id: number;
  updated_at: string;
}

const at = (day: number) => `2024-01-${String(day).padStart(2, '0')}T00:00:00Z`;

/** An incremental run killed mid-way: its cursor must not advance and none of its rows may show. */
describe('reliability: the app killed in the middle of an incremental run', () => {
  let database: ReliabilityDatabase;
  let app: AppProcess;
  let upstream: FakeUpstream;
  let stalling = false;
  const events: Event[] = [1, 2, 3].map((id) => ({ id, updated_at: at(id + 1) }));
  const sinceSeen: Array<string | null> = [];

  beforeAll(async () => {
    upstream = await startFakeUpstream((request, response) => {
      const since = request.url.searchParams.get('updated_since');
      const page = Number(request.url.searchParams.get('page') ?? '1');
      sinceSeen.push(since);
      if (page > 1 && stalling) return new Promise(() => undefined);
      const changed = events.filter((event) => !since || Date.parse(event.updated_at) > Date.parse(since));
      sendJson(response, changed.slice((page - 1) * 3, page * 3));
    });
    database = await createReliabilityDatabase('dm_rel_incremental');
    app = await AppProcess.start({ name: 'incremental-kill', databaseUrl: database.url });
  });

  afterAll(async () => {
    await stopAllApps();
    await upstream?.close();
    await database?.drop();
  });

  const spec = (): ConnectorSpec => ({
    base_url: upstream.origin,
    fields: [{ key: 'start_date', type: 'date' }],
    operations: [
      {
        id: 'events',
        url_path: '/events',
        pagination: { type: 'page', page_param: 'page', start_page: 1, page_size: 3 },
        primary_key: ['id'],
        incremental: { cursor_field: 'updated_at', param: 'updated_since', start_setting: 'start_date' },
      },
    ],
  });

  it('keeps the state and the rows of the last committed run, and the next run reads from there', async () => {
    const owner = await createUser(database.dataSource);
    const client = new HttpClient(app.baseUrl);
    await client.login(owner.email, owner.password);
    const connector = await createConnector(database.dataSource, { spec: spec() });
    const { id } = await client.expect<{ id: string }>('POST', '/api/connectors/activate', 201, {
      json: { connector_id: connector.id, settings: { start_date: '2024-01-01' } },
    });
    const [{ output_table_name: table }] = await database.dataSource.query(
      `SELECT output_table_name FROM connector_instances WHERE id = $1`,
      [id],
    );
    const state = async () =>
      (
        await database.dataSource.query(`SELECT incremental_state FROM connector_instances WHERE id = $1`, [
          id,
        ])
      )[0].incremental_state;
    const ids = async () =>
      (await database.dataSource.query(`SELECT id::int AS id FROM data."${table}" ORDER BY id`)).map(
        (row: { id: number }) => row.id,
      );

    await client.expect('POST', `/api/connectors/run/${id}`, 200);
    expect(await state()).toEqual({ cursor: at(4) });
    expect(await ids()).toEqual([1, 2, 3]);

    // Six new events: page 1 (three of them) is staged, page 2 never answers, then the process dies.
    events.push(...[4, 5, 6, 7, 8, 9].map((next) => ({ id: next, updated_at: at(next + 1) })));
    stalling = true;
    sinceSeen.splice(0);
    await client.expect('POST', `/api/connectors/instance/${id}/run`, 202, { json: {} });
    await waitFor(
      'the run to stall on page 2',
      async () => (sinceSeen.length >= 2 ? true : undefined),
      20_000,
      50,
    );
    expect((await strayDataTables(database.dataSource)).length).toBe(1);
    await app.kill();

    expect(await state()).toEqual({ cursor: at(4) });
    expect(await ids()).toEqual([1, 2, 3]);

    stalling = false;
    await app.restart();
    await client.login(owner.email, owner.password);
    await waitFor(
      'the interrupted run to be marked failed',
      async () => {
        const [run] = await database.dataSource.query(
          `SELECT status FROM connector_runs WHERE instance_id = $1 ORDER BY started_at DESC LIMIT 1`,
          [id],
        );
        return run.status === 'failed' ? true : undefined;
      },
      15_000,
      250,
    );
    expect(await strayDataTables(database.dataSource)).toEqual([]);
    sinceSeen.splice(0);
    await client.expect('POST', `/api/connectors/run/${id}`, 200);
    expect(sinceSeen).toEqual([at(4), at(4), at(4)]);
    expect(await ids()).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(await state()).toEqual({ cursor: at(10) });
  });
});
