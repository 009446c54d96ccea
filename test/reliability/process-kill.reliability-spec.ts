import { randomUUID } from 'node:crypto';
import type { ConnectorSpec } from '../../src/connectors/dsl/connector-spec.types';
import { FakeUpstream, sendJson, startFakeUpstream } from '../connectors/support/fake-upstream';
import { createConnector } from '../factories/connector.factory';
import { createUser } from '../factories/user.factory';
import { AppProcess, stopAllApps } from './support/app-process';
import { createReliabilityDatabase, ReliabilityDatabase, strayDataTables, waitFor } from './support/database';
import { HttpClient } from './support/http-client';

const UPLOAD_ROWS = 1_000_000;
/** Rows COPY must have taken in before the kill: well inside the upload, far from its end. */
const KILL_AFTER_ROWS = 150_000;
const PAGE_SIZE = 3;

interface RunRow {
  id: string;
  status: string;
  trigger: string;
  error: string | null;
  started_at: string;
}

/** One connector per path: page 1 answers PAGE_SIZE rows, page 2 ends the data or stalls. */
function pagedSpec(origin: string, path: string): ConnectorSpec {
  return {
    protocol: 'http',
    base_url: origin,
    operations: [
      {
        id: 'items',
        name: 'Items',
        method: 'GET',
        url_path: path,
        pagination: { type: 'page', page_param: 'page', page_size: PAGE_SIZE },
      },
    ],
    fields: [],
  };
}

/** About 130 bytes a row, produced on demand in chunks of 1,000 rows. */
function* generatedCsv(rows: number): Generator<string> {
  yield 'id,name,amount,day,category,note\n';
  for (let start = 1; start <= rows; start += 1000) {
    let chunk = '';
    for (let id = start; id < start + 1000 && id <= rows; id++) {
      chunk += `${id},item-${id},${(id * 1.37).toFixed(2)},2024-03-${String((id % 28) + 1).padStart(2, '0')},category-${id % 17},a note that pads the row to a realistic width for one dataset\n`;
    }
    yield chunk;
  }
}

describe('reliability: the app killed with SIGKILL in the middle of writes', () => {
  let database: ReliabilityDatabase;
  let app: AppProcess;
  let upstream: FakeUpstream;
  /** Paths whose page 2 currently never answers, and the generation of rows each path serves. */
  const stalling = new Set<string>();
  const generation = new Map<string, number>([
    ['/a', 1],
    ['/b', 1],
  ]);
  const stalledRequests: string[] = [];

  beforeAll(async () => {
    upstream = await startFakeUpstream((request, response) => {
      const path = request.url.pathname;
      const page = Number(request.url.searchParams.get('page') ?? '1');
      if (page > 1 && stalling.has(path)) {
        stalledRequests.push(path);
        return new Promise(() => undefined);
      }
      const rows =
        page === 1
          ? Array.from({ length: PAGE_SIZE }, (_, index) => ({
              item: index + 1,
              generation: generation.get(path),
            }))
          : [];
      sendJson(response, rows);
    });
    database = await createReliabilityDatabase('dm_rel_kill');
    app = await AppProcess.start({
      name: 'process-kill',
      databaseUrl: database.url,
      env: { SCHEDULER_ENABLED: 'true', SCHEDULER_TICK_SECONDS: '1' },
    });
  });

  afterAll(async () => {
    await stopAllApps();
    await upstream?.close();
    await database?.drop();
  });

  async function runsOf(client: HttpClient, instanceId: string): Promise<RunRow[]> {
    return client.expect<RunRow[]>('GET', `/api/connectors/instance/${instanceId}/runs`, 200);
  }

  async function generations(table: string): Promise<Record<string, number>> {
    const rows: Array<{ generation: number; rows: number }> = await database.dataSource.query(
      `SELECT generation, count(*)::int AS rows FROM data."${table}" GROUP BY generation ORDER BY generation`,
    );
    return Object.fromEntries(rows.map((row) => [`generation ${row.generation}`, row.rows]));
  }

  it('leaves no partial dataset or stray table, keeps the previous connector rows, fails the interrupted runs and schedules the next one', async () => {
    const owner = await createUser(database.dataSource, { proUser: true });
    const client = new HttpClient(app.baseUrl);
    await client.login(owner.email, owner.password);
    const manualConnector = await createConnector(database.dataSource, {
      spec: pagedSpec(upstream.origin, '/a'),
    });
    const scheduledConnector = await createConnector(database.dataSource, {
      spec: pagedSpec(upstream.origin, '/b'),
    });
    const { id: manualId } = await client.expect<{ id: string }>('POST', '/api/connectors/activate', 201, {
      json: { connector_id: manualConnector.id, refresh_interval: 0 },
    });
    // Every minute, appending: the scheduler (ticking each second here) runs it at once.
    const { id: scheduledId } = await client.expect<{ id: string }>('POST', '/api/connectors/activate', 201, {
      json: { connector_id: scheduledConnector.id, refresh_interval: 1 },
    });
    const [{ output_table_name: manualTable }, { output_table_name: scheduledTable }] =
      await database.dataSource.query(
        `SELECT output_table_name FROM connector_instances WHERE id = ANY($1) ORDER BY id = $2 DESC`,
        [[manualId, scheduledId], manualId],
      );

    // The previous rows: one complete run of each.
    await client.expect('POST', `/api/connectors/run/${manualId}`, 200);
    await waitFor(
      'the first scheduled run',
      async () =>
        (await runsOf(client, scheduledId)).some((run) => run.status === 'succeeded') ? true : undefined,
      15_000,
    );
    expect(await generations(manualTable)).toEqual({ 'generation 1': PAGE_SIZE });
    expect(await generations(scheduledTable)).toEqual({ 'generation 1': PAGE_SIZE });

    // Second generation: page 1 arrives and is written to staging, page 2 never comes.
    stalling.add('/a');
    stalling.add('/b');
    generation.set('/a', 2);
    generation.set('/b', 2);
    await client.expect('POST', `/api/connectors/instance/${manualId}/run`, 202, {
      json: { override: true },
    });
    await database.dataSource.query(
      `UPDATE connector_instances SET last_run_started_at = now() - interval '2 minutes' WHERE id = $1`,
      [scheduledId],
    );
    await waitFor(
      'both runs to stall on page 2',
      async () => (stalledRequests.includes('/a') && stalledRequests.includes('/b') ? true : undefined),
      20_000,
      50,
    );

    const uploadTitle = `Killed upload ${randomUUID()}`;
    let interruptedIds: string[] = [];
    const upload = client.streamCsvUpload(
      { title: uploadTitle, is_public: 'true' },
      generatedCsv(UPLOAD_ROWS),
    );
    try {
      await waitFor(
        `COPY to take in ${KILL_AFTER_ROWS} rows`,
        async () => {
          const [progress] = await database.dataSource.query(
            `SELECT p.tuples_processed::int AS rows FROM pg_stat_progress_copy p
               JOIN pg_stat_activity a ON a.pid = p.pid
              WHERE a.application_name = 'dataset-ingest' AND p.datname = current_database()`,
          );
          return progress && progress.rows >= KILL_AFTER_ROWS ? true : undefined;
        },
        60_000,
        50,
      );
      // Both runs are mid-way: their staging tables hold page 1.
      expect((await strayDataTables(database.dataSource)).length).toBe(2);
      interruptedIds = await Promise.all(
        [manualId, scheduledId].map(async (id) => {
          const [run] = await database.dataSource.query(
            `SELECT id FROM connector_runs WHERE instance_id = $1 AND status = 'running'`,
            [id],
          );
          return run.id as string;
        }),
      );
      await app.kill();
    } finally {
      upload.stop();
    }
    expect((await upload.done).status).toBeUndefined();

    // From now on the upstream answers completely, with a third generation of rows.
    stalling.clear();
    generation.set('/a', 3);
    generation.set('/b', 3);
    await app.restart();

    // Postgres rolled the upload back when its connection dropped: nothing of it anywhere.
    await waitFor(
      'the killed ingest connection to go away',
      async () => {
        const [row] = await database.dataSource.query(
          `SELECT count(*)::int AS open FROM pg_stat_activity WHERE application_name = 'dataset-ingest' AND datname = current_database()`,
        );
        return row.open === 0 ? true : undefined;
      },
      30_000,
    );
    expect(await database.dataSource.query(`SELECT id FROM assets WHERE title = $1`, [uploadTitle])).toEqual(
      [],
    );
    const owned = await client.expect<Array<{ title: string }>>('GET', '/api/assets?scope=owned', 200);
    expect(owned.map((asset) => asset.title)).not.toContain(uploadTitle);
    const datasetTables = await database.dataSource.query(
      `SELECT table_name FROM information_schema.tables WHERE table_schema = 'data' AND table_name LIKE 'ds\\_%'`,
    );
    expect(datasetTables).toEqual([]);
    // The connector tables still hold exactly the rows of the last complete runs.
    expect(await generations(manualTable)).toEqual({ 'generation 1': PAGE_SIZE });
    expect(await generations(scheduledTable)).toEqual({ 'generation 1': PAGE_SIZE });

    // The restarted process marks the runs of the dead one failed as it starts: the dead process's
    // liveness lock went away with its database connection.
    const interrupted = await waitFor(
      'the interrupted runs to be marked failed',
      async () => {
        const runs = await Promise.all(
          [manualId, scheduledId].map(async (id, index) =>
            (await runsOf(client, id)).find((run) => run.id === interruptedIds[index]),
          ),
        );
        return runs.every((run) => run && run.status !== 'running') ? (runs as RunRow[]) : undefined;
      },
      // The restarted process recovers as it starts, before it answers: nothing to wait for but that.
      10_000,
      250,
    );
    for (const run of interrupted) {
      expect(run).toMatchObject({ status: 'failed', error: expect.stringMatching(/interrupted/i) });
    }
    expect(interrupted.map((run) => run.trigger)).toEqual(['manual', 'schedule']);

    // The next scheduled refresh happens by itself and appends the new generation. Its one-minute
    // interval counts from the interrupted run's start; that start moves back a minute instead of
    // the suite waiting for it.
    await database.dataSource.query(
      `UPDATE connector_instances SET last_run_started_at = last_run_started_at - interval '1 minute' WHERE id = $1`,
      [scheduledId],
    );
    const next = await waitFor(
      'the next scheduled run',
      async () => {
        const [latest] = await runsOf(client, scheduledId);
        return !interruptedIds.includes(latest.id) && latest.status === 'succeeded' ? latest : undefined;
      },
      30_000,
    );
    expect(next.trigger).toBe('schedule');
    expect(await generations(scheduledTable)).toEqual({
      'generation 1': PAGE_SIZE,
      'generation 3': PAGE_SIZE,
    });
    expect(await generations(manualTable)).toEqual({ 'generation 1': PAGE_SIZE });
    const preview = await client.expect<{ rows: unknown[] }>('GET', `/api/assets/table/${manualTable}`, 200);
    expect(preview.rows).toHaveLength(PAGE_SIZE);
    // Staging tables of the interrupted runs are gone with them.
    expect(await strayDataTables(database.dataSource)).toEqual([]);
  });
});
