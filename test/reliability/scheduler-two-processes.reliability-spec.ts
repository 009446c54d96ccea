import { FakeUpstream, sendJson, startFakeUpstream } from '../connectors/support/fake-upstream';
import { createConnector, simpleSpec } from '../factories/connector.factory';
import { createUser } from '../factories/user.factory';
import { AppProcess, stopAllApps } from './support/app-process';
import { createReliabilityDatabase, ReliabilityDatabase, waitFor } from './support/database';

const SCHEDULED_INSTANCES = 12;
const PERIODS = 4;
/** Scheduler passes of each process during which nothing more may start once a period's runs are done. */
const QUIET_TICKS = 3;

describe('reliability: two app processes on one database', () => {
  let database: ReliabilityDatabase;
  let upstream: FakeUpstream;

  beforeAll(async () => {
    upstream = await startFakeUpstream(async (_request, response) => {
      // Long enough that runs overlap and both processes have work in flight at once.
      await new Promise((resolve) => setTimeout(resolve, 150));
      sendJson(response, [{ value: 1 }, { value: 2 }]);
    });
    database = await createReliabilityDatabase('dm_rel_scheduler');
    const env = { SCHEDULER_ENABLED: 'true', SCHEDULER_TICK_SECONDS: '1' };
    // Started together: they also take turns on the migrations.
    await Promise.all(
      ['scheduler-first', 'scheduler-second'].map((name) =>
        AppProcess.start({ name, databaseUrl: database.url, env }),
      ),
    );
  });

  afterAll(async () => {
    await stopAllApps();
    await upstream?.close();
    await database?.drop();
  });

  /** Instances with their output table, as activation creates them; due at once when never run. */
  async function insertInstances(
    ownerId: string,
    connectorId: string,
    count: number,
    refreshInterval: number,
    lastStartedMinutesAgo: number | null,
  ): Promise<string[]> {
    const ids: string[] = [];
    await database.dataSource.transaction(async (manager) => {
      for (let index = 0; index < count; index++) {
        const table = `ci_two_processes_${Math.random().toString(16).slice(2, 12)}`;
        const [row] = await manager.query(
          `INSERT INTO connector_instances (connector_id, owner_id, title, refresh_interval, output_table_name, last_run_started_at)
           VALUES ($1, $2, 'Scheduled', $3, $4,
                   CASE WHEN $5::int IS NULL THEN NULL ELSE now() - make_interval(mins => $5::int) END)
           RETURNING id`,
          [connectorId, ownerId, refreshInterval, table, lastStartedMinutesAgo],
        );
        await manager.query(
          `CREATE TABLE data."${table}" (_run_id uuid NOT NULL, _fetched_at timestamptz NOT NULL)`,
        );
        ids.push(row.id);
      }
    });
    return ids;
  }

  async function scheduledRuns(
    ids: string[],
  ): Promise<Array<{ instance_id: string; runs: number; running: number; succeeded: number }>> {
    return database.dataSource.query(
      `SELECT i.id AS instance_id, count(r.id)::int AS runs,
              count(r.id) FILTER (WHERE r.status = 'running')::int AS running,
              count(r.id) FILTER (WHERE r.status = 'succeeded')::int AS succeeded
         FROM connector_instances i
         LEFT JOIN connector_runs r ON r.instance_id = i.id AND r.trigger = 'schedule'
        WHERE i.id = ANY($1)
        GROUP BY i.id`,
      [ids],
    );
  }

  it('runs every due refresh exactly once, period after period, sharing the work', async () => {
    const owner = await createUser(database.dataSource, { proUser: true });
    const connector = await createConnector(database.dataSource, { spec: simpleSpec(upstream.origin) });
    const notDue = await insertInstances(owner.id, connector.id, 2, 60, 10);
    const manualOnly = await insertInstances(owner.id, connector.id, 2, 0, null);
    const scheduled = await insertInstances(owner.id, connector.id, SCHEDULED_INSTANCES, 1, null);

    for (let period = 1; period <= PERIODS; period++) {
      await waitFor(
        `period ${period}: one finished run per instance`,
        async () => {
          const rows = await scheduledRuns(scheduled);
          return rows.every((row) => row.runs >= period && row.running === 0) ? rows : undefined;
        },
        30_000,
        100,
      );
      // Both processes keep ticking: nothing may start again until the interval has passed.
      await new Promise((resolve) => setTimeout(resolve, QUIET_TICKS * 1000 + 500));
      const rows = await scheduledRuns(scheduled);
      expect(rows.filter((row) => row.runs !== period || row.succeeded !== period)).toEqual([]);
      if (period === PERIODS) break;
      // One refresh interval (1 minute) passes for every instance.
      await database.dataSource.query(
        `UPDATE connector_instances SET last_run_started_at = last_run_started_at - interval '1 minute'
          WHERE id = ANY($1)`,
        [scheduled],
      );
    }

    const others = await scheduledRuns([...notDue, ...manualOnly]);
    expect(others.every((row) => row.runs === 0)).toBe(true);
    expect(upstream.requests).toHaveLength(SCHEDULED_INSTANCES * PERIODS);
    const runners: Array<{ runner_id: string }> = await database.dataSource.query(
      `SELECT DISTINCT runner_id FROM connector_runs WHERE instance_id = ANY($1)`,
      [scheduled],
    );
    expect(runners).toHaveLength(2);
  });
});
