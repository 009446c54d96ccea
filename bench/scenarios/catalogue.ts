import { freePort, startNode } from '../api-process';
import { BenchContext, inTurn } from '../context';
import { withClient } from '../database';
import { LoadResult, runLoad } from '../load';
import { summarise } from '../measure';
import type { BenchRow } from '../report';

const SUBJECTS = ['Sales', 'Weather', 'Traffic', 'Energy', 'Census', 'Retail', 'Health', 'Transit'];
const KINDS = ['daily', 'monthly', 'regional', 'global', 'hourly'];
/** Matches one subject in eight: about 1,250 of 10,000 titles to count and sort. */
const SEARCH = 'weather';
/** Both servers take this much of the same load first: the API JIT-compiles a framework's worth of code in it. */
const WARM_UP_SECONDS = 5;

/** Catalogue rows without tables behind them, owned by another user, spread over a year. */
export async function insertCatalogue(databaseUrl: string, count: number): Promise<void> {
  await withClient(databaseUrl, async (client) => {
    const { rows } = await client.query(
      `INSERT INTO users (email, name, password_hash, email_verified_at)
       VALUES ('publisher@bench.test', 'Publisher', 'not-a-login', now()) RETURNING id`,
    );
    await client.query(
      `INSERT INTO assets (owner_id, title, description, category, keywords, is_public, table_name, created_at)
       SELECT $1,
              ($2::text[])[1 + n % array_length($2::text[], 1)] || ' ' ||
                ($3::text[])[1 + n % array_length($3::text[], 1)] || ' dataset ' || n,
              'Generated for the catalogue benchmark: ' || ($3::text[])[1 + n % array_length($3::text[], 1)] ||
                ' figures of ' || ($2::text[])[1 + (n / 7) % array_length($2::text[], 1)],
              'Benchmark', ARRAY[lower(($2::text[])[1 + (n / 3) % array_length($2::text[], 1)])], n % 10 <> 0,
              'bulk_' || replace(gen_random_uuid()::text, '-', ''),
              now() - make_interval(mins => n * 53)
         FROM generate_series(1, $4) AS n`,
      [rows[0].id, SUBJECTS, KINDS, count],
    );
    await client.query('ANALYZE assets');
  });
}

/**
 * The catalogue's ranked search (full text over title, keywords and description, ordered by
 * relevance) under concurrent load, anonymous like most catalogue visitors, against a plain
 * node:http + pg server answering the same query. The word is in titles, descriptions and
 * keywords of different datasets, so the ranking has real work to do.
 */
export async function benchCatalogue(context: BenchContext): Promise<BenchRow> {
  const { settings, databaseUrl, api } = context;
  await insertCatalogue(databaseUrl, settings.catalogueAssets);
  const port = await freePort();
  const baselineServer = await startNode(
    'dist/bench/bench/baseline-catalogue-server.js',
    port,
    { DATABASE_URL: databaseUrl },
    'bench/results/baseline-server.log',
  );
  const query = `/api/assets?search=${SEARCH}&limit=20`;
  const load = (origin: string, seconds: number) =>
    runLoad({ url: `${origin}${query}`, connections: settings.connections, seconds });
  const ours: LoadResult[] = [];
  const baseline: LoadResult[] = [];
  try {
    await load(api.origin, WARM_UP_SECONDS);
    await load(baselineServer.origin, WARM_UP_SECONDS);
    for (let run = 0; run < settings.runs; run++) {
      await inTurn(
        run,
        async () => void ours.push(await load(api.origin, settings.loadSeconds)),
        async () => void baseline.push(await load(baselineServer.origin, settings.loadSeconds)),
      );
      context.log(
        `catalogue run ${run + 1}: API ${ours[run].requestsPerSecond.toFixed(0)} req/s ` +
          `(p99 ${ours[run].p99Ms.toFixed(1)} ms, ${ours[run].errors} errors), ` +
          `baseline ${baseline[run].requestsPerSecond.toFixed(0)} req/s (p99 ${baseline[run].p99Ms.toFixed(1)} ms)`,
      );
    }
  } finally {
    await baselineServer.stop();
  }
  const oursRate = summarise(ours.map((result) => result.requestsPerSecond));
  const baselineRate = summarise(baseline.map((result) => result.requestsPerSecond));
  const p99 = summarise(ours.map((result) => result.p99Ms));
  const errors = ours.reduce((sum, result) => sum + result.errors, 0);
  const ratio = oursRate.median / baselineRate.median;
  return {
    what: `Catalogue search under load, ${settings.catalogueAssets.toLocaleString('en')} assets`,
    ourPath: `GET ${query}, anonymous, ${settings.connections} keep-alive connections, ${settings.loadSeconds} s per run`,
    baselinePath: 'a plain node:http + pg server (own process, pool of 20) answering the same SQL and JSON',
    unit: 'req/s',
    ours: oursRate,
    baseline: baselineRate,
    ratio,
    target: '≥ 0.75× req/s, p99 ≤ 50 ms, no errors',
    met: ratio >= 0.75 && p99.median <= 50 && errors === 0,
    side: [
      { label: 'API p99', figure: p99, unit: 'ms' },
      { label: 'API p50', figure: summarise(ours.map((result) => result.p50Ms)), unit: 'ms' },
      { label: 'baseline p99', figure: summarise(baseline.map((result) => result.p99Ms)), unit: 'ms' },
    ],
    notes: [
      `${errors} failed requests over all runs of our path; each server first took ${WARM_UP_SECONDS} s of the same load, not timed.`,
      `The load generator runs in the benchmark process on the same machine, so it takes CPU from both servers alike. Search term "${SEARCH}" is in about ${Math.round(settings.catalogueAssets / SUBJECTS.length).toLocaleString('en')} titles and as many descriptions and keywords each; both sides rank by relevance. The category facet counts (GET /api/assets/facets) are a separate request and are not part of this row.`,
    ],
  };
}
