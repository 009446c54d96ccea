import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { replicationToolsMissing } from '../../test/support/replicated-postgres';
import { BenchContext, BenchSettings, inTurn } from '../context';
import { withClient } from '../database';
import { LoadResult, runLoad } from '../load';
import { summarise } from '../measure';
import { ReplicaDeployment, startReplicaDeployment } from '../replica-deployment';
import type { BenchRow } from '../report';
import { BenchUser, createBenchUser } from '../session';
import { insertCatalogue } from './catalogue';

const TENANTS = 4;
const QUERIES_EACH = 2;
const TARGET_RATIO = 1.5;
/** A sort of ten million computed values: CPU, memory up to work_mem and temp files, until the statement limit. */
const HEAVY_SQL =
  'SELECT count(*) FROM (SELECT md5(n::text) AS h FROM generate_series(1, 10000000) n ORDER BY h) sorted';

/**
 * Statements the API lets run at once on its query server, QUERY_MAX_CONCURRENT's default (the
 * bench does not set it): the other heavy queries wait for a place or are refused (429).
 */
const RUNNING_CAP = 2 * availableParallelism();

/** One way of deploying the API, measured with the same tenants' load as the other. */
interface Deployment {
  name: string;
  /** The app's database: tenants and rate limits. */
  databaseUrl: string;
  /** Where user statements run: the same database, or its replica. */
  statementsUrl: string;
  origin: string;
  tenants: BenchUser[];
  idle: LoadResult[];
  flooded: LoadResult[];
  /** Answers to the heavy queries by HTTP status. */
  answers: Map<number, number>;
}

/**
 * Whether one tenant's SQL slows everyone's catalogue: the catalogue search's p99 while four
 * users each run two heavy queries back to back, against the same search load with no queries,
 * alternating in the same run. Two deployments, measured in turn in the same run: (a) one server
 * for everything, (b) user SQL on a streaming replica (QUERY_DATABASE_URL) lowered to the last core
 * at idle priority, standing in for a host of its own; each compared with its own idle p99. Only
 * the p99 of the catalogue is compared; the queries may end by the statement limit (a 4xx), which
 * is their normal fate here.
 */
export async function benchTenantIsolation(context: BenchContext): Promise<BenchRow[]> {
  const { settings } = context;
  const single = await prepare(
    'single server',
    context.databaseUrl,
    context.databaseUrl,
    context.api.origin,
    settings,
  );
  let replicated: ReplicaDeployment | undefined;
  let onReplica: Deployment | undefined;
  let skipped: string | undefined = replicationToolsMissing();
  try {
    if (!skipped) {
      try {
        replicated = await startReplicaDeployment(join(context.results, 'api-server-replica.log'));
        context.log(`API with QUERY_DATABASE_URL, pid ${replicated.api.pid} on ${replicated.api.origin}`);
        onReplica = await prepare(
          'user SQL on a replica',
          replicated.databaseUrl,
          replicated.replicaUrl,
          replicated.api.origin,
          settings,
        );
      } catch (error) {
        skipped = `it could not be set up: ${error instanceof Error ? error.message : String(error)}`;
      }
    }
    if (skipped) context.log(`tenant isolation: the replica row is skipped, ${skipped}`);
    const deployments = onReplica ? [single, onReplica] : [single];
    for (const deployment of deployments) await catalogue(deployment, settings); // warm-up, not timed
    for (let run = 0; run < settings.runs; run++) {
      // Both deployments in every run, in turn, so a busy moment of the machine hits both alike.
      const order = run % 2 === 0 ? deployments : [...deployments].reverse();
      for (const deployment of order) await measure(deployment, run, context);
    }
  } finally {
    await replicated?.stop();
  }
  const rows = [toRow(single, settings, 'same process, same run')];
  if (onReplica) rows.push(toRow(onReplica, settings, 'same process (with QUERY_DATABASE_URL), same run'));
  else rows[0].notes.push(`The row with user SQL on a replica was skipped: ${skipped}.`);
  return rows;
}

async function prepare(
  name: string,
  databaseUrl: string,
  statementsUrl: string,
  origin: string,
  settings: BenchSettings,
): Promise<Deployment> {
  const assets = await withClient(databaseUrl, async (client) => {
    const { rows } = await client.query('SELECT count(*)::int AS n FROM assets');
    return rows[0].n as number;
  });
  if (assets < settings.catalogueAssets / 2) await insertCatalogue(databaseUrl, settings.catalogueAssets);
  const tenants = await Promise.all(
    Array.from({ length: TENANTS }, (_, index) => createBenchUser(databaseUrl, origin, `tenant${index}`)),
  );
  return { name, databaseUrl, statementsUrl, origin, tenants, idle: [], flooded: [], answers: new Map() };
}

function catalogue(deployment: Deployment, settings: BenchSettings): Promise<LoadResult> {
  return runLoad({
    url: `${deployment.origin}/api/assets?search=weather&limit=20`,
    connections: settings.connections,
    seconds: settings.loadSeconds,
  });
}

/** One idle and one flooded catalogue load of `deployment`, their order alternating by run. */
async function measure(deployment: Deployment, run: number, context: BenchContext): Promise<void> {
  const { settings } = context;
  await inTurn(
    run,
    async () => void deployment.idle.push(await catalogue(deployment, settings)),
    async () => void deployment.flooded.push(await underFlood(deployment, settings)),
  );
  context.log(
    `tenant isolation run ${run + 1}, ${deployment.name}: catalogue p99 idle ` +
      `${deployment.idle[run].p99Ms.toFixed(1)} ms, with ${TENANTS}×${QUERIES_EACH} heavy queries ` +
      `${deployment.flooded[run].p99Ms.toFixed(1)} ms`,
  );
}

/** Catalogue load while every tenant keeps QUERIES_EACH heavy statements running. */
async function underFlood(deployment: Deployment, settings: BenchSettings): Promise<LoadResult> {
  let flooding = true;
  const tenantLoop = async (tenant: BenchUser) => {
    while (flooding) {
      await withClient(deployment.databaseUrl, (client) =>
        client.query(`DELETE FROM rate_limit_buckets WHERE key = $1`, [`query:${tenant.id}`]),
      );
      const { status } = await tenant.client.send('POST', '/api/query', {
        json: { sql: HEAVY_SQL },
        headers: { 'x-api-key': tenant.apiKey },
      });
      deployment.answers.set(status, (deployment.answers.get(status) ?? 0) + 1);
    }
  };
  const flood = deployment.tenants.flatMap((tenant) =>
    Array.from({ length: QUERIES_EACH }, () => tenantLoop(tenant)),
  );
  // Let the statements start before the catalogue is measured.
  await waitForRunningQueries(deployment.statementsUrl, Math.min(TENANTS * QUERIES_EACH, RUNNING_CAP));
  const result = await catalogue(deployment, settings);
  flooding = false;
  await Promise.all(flood);
  return result;
}

function toRow(deployment: Deployment, settings: BenchSettings, sameWhat: string): BenchRow {
  const ours = summarise(deployment.flooded.map((result) => result.p99Ms));
  const baseline = summarise(deployment.idle.map((result) => result.p99Ms));
  const ratio = ours.median / baseline.median;
  const errors = deployment.flooded.reduce((sum, result) => sum + result.errors, 0);
  const answers = [...deployment.answers]
    .sort(([a], [b]) => a - b)
    .map(([status, count]) => `${count}× ${status}`)
    .join(', ');
  const where =
    deployment.statementsUrl === deployment.databaseUrl
      ? 'user SQL on the same PostgreSQL as the catalogue'
      : 'user SQL on a streaming replica (QUERY_DATABASE_URL) confined to the last core at idle priority, standing in for a host of its own';
  return {
    what: `Catalogue p99 while ${TENANTS} users each run ${QUERIES_EACH} heavy queries, ${deployment.name}`,
    ourPath: `GET /api/assets?search=weather, ${settings.connections} connections, ${settings.loadSeconds} s, with ${TENANTS * QUERIES_EACH} heavy POST /api/query running, ${where}`,
    baselinePath: `the same catalogue load with no queries running, ${sameWhat}`,
    unit: 'ms',
    ours,
    baseline,
    ratio,
    target: `≤ ${TARGET_RATIO}× p99, no catalogue errors`,
    met: ratio <= TARGET_RATIO && errors === 0,
    side: [],
    notes: [
      `Heavy query: ${HEAVY_SQL}; answers by status: ${answers || 'none'} (400: stopped at the statement limit; 429: no place among the ${RUNNING_CAP} statements run at once within the queue wait).`,
      `${errors} failed catalogue requests under the flood.`,
    ],
  };
}

/** Waits (bounded) until the user statements show in pg_stat_activity, so the flood is on when timing starts. */
async function waitForRunningQueries(statementsUrl: string, count: number): Promise<void> {
  const deadline = Date.now() + 30_000;
  await withClient(statementsUrl, async (client) => {
    while (Date.now() < deadline) {
      const { rows } = await client.query(
        `SELECT count(*)::int AS n FROM pg_stat_activity WHERE state = 'active' AND query LIKE '%generate_series(1, 10000000)%' AND pid <> pg_backend_pid()`,
      );
      if (rows[0].n >= count) return;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  });
}
