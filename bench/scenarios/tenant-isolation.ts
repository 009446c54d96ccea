import { BenchContext, inTurn } from '../context';
import { withClient } from '../database';
import { LoadResult, runLoad } from '../load';
import { summarise } from '../measure';
import type { BenchRow } from '../report';
import { createBenchUser } from '../session';
import { insertCatalogue } from './catalogue';

const TENANTS = 4;
const QUERIES_EACH = 2;
const TARGET_RATIO = 1.5;
/** A sort of ten million computed values: CPU, memory up to work_mem and temp files, until the statement limit. */
const HEAVY_SQL =
  'SELECT count(*) FROM (SELECT md5(n::text) AS h FROM generate_series(1, 10000000) n ORDER BY h) sorted';

/**
 * Whether one tenant's SQL slows everyone's catalogue: the catalogue search's p99 while four
 * users each run two heavy queries back to back, against the same search load with no queries,
 * alternating in the same run. Only the p99 of the catalogue is compared; the queries may end
 * by the statement limit (a 4xx), which is their normal fate here.
 */
export async function benchTenantIsolation(context: BenchContext): Promise<BenchRow> {
  const { settings, databaseUrl, api } = context;
  const assets = await withClient(databaseUrl, async (client) => {
    const { rows } = await client.query('SELECT count(*)::int AS n FROM assets');
    return rows[0].n as number;
  });
  if (assets < settings.catalogueAssets / 2) await insertCatalogue(databaseUrl, settings.catalogueAssets);
  const tenants = await Promise.all(
    Array.from({ length: TENANTS }, (_, index) => createBenchUser(databaseUrl, api.origin, `tenant${index}`)),
  );
  const search = `${api.origin}/api/assets?search=weather&limit=20`;
  const catalogue = () =>
    runLoad({ url: search, connections: settings.connections, seconds: settings.loadSeconds });

  let queriesAnswered = 0;
  /** Catalogue load while every tenant keeps QUERIES_EACH heavy statements running. */
  const underFlood = async (): Promise<LoadResult> => {
    let flooding = true;
    const tenantLoop = async (tenant: (typeof tenants)[number]) => {
      while (flooding) {
        await withClient(databaseUrl, (client) =>
          client.query(`DELETE FROM rate_limit_buckets WHERE key = $1`, [`query:${tenant.id}`]),
        );
        await tenant.client.send('POST', '/api/query', {
          json: { sql: HEAVY_SQL },
          headers: { 'x-api-key': tenant.apiKey },
        });
        queriesAnswered++;
      }
    };
    const flood = tenants.flatMap((tenant) => Array.from({ length: QUERIES_EACH }, () => tenantLoop(tenant)));
    // Let the statements start before the catalogue is measured.
    await waitForRunningQueries(databaseUrl, TENANTS * QUERIES_EACH);
    const result = await catalogue();
    flooding = false;
    await Promise.all(flood);
    return result;
  };

  await catalogue(); // warm-up, not timed
  const idle: LoadResult[] = [];
  const flooded: LoadResult[] = [];
  for (let run = 0; run < settings.runs; run++) {
    await inTurn(
      run,
      async () => void idle.push(await catalogue()),
      async () => void flooded.push(await underFlood()),
    );
    context.log(
      `tenant isolation run ${run + 1}: catalogue p99 idle ${idle[run].p99Ms.toFixed(1)} ms, ` +
        `with ${TENANTS}×${QUERIES_EACH} heavy queries ${flooded[run].p99Ms.toFixed(1)} ms`,
    );
  }
  const ours = summarise(flooded.map((result) => result.p99Ms));
  const baseline = summarise(idle.map((result) => result.p99Ms));
  const ratio = ours.median / baseline.median;
  const errors = flooded.reduce((sum, result) => sum + result.errors, 0);
  return {
    what: `Catalogue p99 while ${TENANTS} users each run ${QUERIES_EACH} heavy queries`,
    ourPath: `GET /api/assets?search=weather, ${settings.connections} connections, ${settings.loadSeconds} s, with ${TENANTS * QUERIES_EACH} heavy POST /api/query running`,
    baselinePath: 'the same catalogue load with no queries running, same process, same run',
    unit: 'ms',
    ours,
    baseline,
    ratio,
    target: `≤ ${TARGET_RATIO}× p99, no catalogue errors`,
    met: ratio <= TARGET_RATIO && errors === 0,
    side: [],
    notes: [
      `Heavy query: ${HEAVY_SQL}; ${queriesAnswered} answered (most end at the statement limit).`,
      `${errors} failed catalogue requests under the flood.`,
    ],
  };
}

/** Waits (bounded) until the user statements show in pg_stat_activity, so the flood is on when timing starts. */
async function waitForRunningQueries(databaseUrl: string, count: number): Promise<void> {
  const deadline = Date.now() + 30_000;
  await withClient(databaseUrl, async (client) => {
    while (Date.now() < deadline) {
      const { rows } = await client.query(
        `SELECT count(*)::int AS n FROM pg_stat_activity WHERE state = 'active' AND query LIKE '%generate_series(1, 10000000)%' AND pid <> pg_backend_pid()`,
      );
      if (rows[0].n >= count) return;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  });
}
