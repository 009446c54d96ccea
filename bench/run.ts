import { mkdirSync } from 'node:fs';
import { cpus, loadavg, totalmem } from 'node:os';
import { join } from 'node:path';
import { createTestDatabase } from '../test/setup/test-database';
import { startApi } from './api-process';
import { BenchContext, readSettings } from './context';
import { psqlAvailable, withClient } from './database';
import { rssMb } from './measure';
import { generateCsv } from './generate-csv';
import { BenchReport, BenchRow, formatFigure, writeReport } from './report';
import { benchCatalogue } from './scenarios/catalogue';
import { benchConnector } from './scenarios/connector';
import { benchIncremental } from './scenarios/incremental';
import { benchLiveRefresh } from './scenarios/live-refresh';
import { benchDialectIngest } from './scenarios/dialect-ingest';
import { benchIngest } from './scenarios/ingest';
import { benchOData } from './scenarios/odata';
import { benchQuery } from './scenarios/query';
import { benchParquetStream } from './scenarios/parquet-stream';
import { benchRefresh } from './scenarios/refresh';
import { benchScaleOut } from './scenarios/scale-out';
import { benchGzipStreams, benchStreams } from './scenarios/stream';
import { benchTenantIsolation } from './scenarios/tenant-isolation';
import { createBenchUser } from './session';

/** Where the results, the generated CSV and the API's logs go (BENCH_RESULTS; CI's small run uses a folder of its own). */
const RESULTS = process.env.BENCH_RESULTS ?? join('bench', 'results');

function log(message: string): void {
  console.log(`[bench] ${message}`);
}

/**
 * `npm run bench`: every benchmark in one go, on generated data, against a throw-away database
 * (on the server named by DATABASE_URL, else an embedded PostgreSQL) and the built API started
 * as a child process. Prints the figures and writes them to bench/results/latest.{md,json}.
 */
async function main(): Promise<void> {
  const settings = readSettings();
  if (!(await psqlAvailable()))
    throw new Error('psql is needed for the baselines (apt-get install postgresql-client)');
  const startedAt = new Date();
  log(`settings ${JSON.stringify(settings)}`);
  mkdirSync(RESULTS, { recursive: true });
  const csv = await generateCsv(join(RESULTS, `orders-v2-${settings.rows}-rows.csv.tmp`), settings.rows);
  log(`CSV ${csv.path}: ${(csv.bytes / 1e6).toFixed(0)} MB`);

  const database = await createTestDatabase('bench');
  let api: BenchContext['api'] | undefined;
  try {
    api = await startApi(database.url, join(RESULTS, 'api-server.log'));
    log(`API pid ${api.pid} on ${api.origin}`);
    const postgres = await withClient(database.url, async (client) => {
      const { rows } = await client.query(`SELECT current_setting('server_version') AS version`);
      return `PostgreSQL ${rows[0].version}`;
    });
    const user = await createBenchUser(database.url, api.origin, 'bench');
    const context: BenchContext = {
      settings,
      databaseUrl: database.url,
      api,
      user,
      csv,
      results: RESULTS,
      log,
    };

    const rows: BenchRow[] = [];
    const chosen = new Set(settings.only);
    if (chosen.has('ingest')) {
      const ingest = await benchIngest(context);
      rows.push(ingest.row);
      if (chosen.has('streams')) rows.push(...(await benchStreams(context, ingest.assetId)));
      if (chosen.has('gzip-streams')) rows.push(...(await benchGzipStreams(context, ingest.assetId)));
      if (chosen.has('parquet')) rows.push(await benchParquetStream(context, ingest.assetId));
      if (chosen.has('odata')) rows.push(...(await benchOData(context, ingest.assetId)));
      if (chosen.has('query')) rows.push(...(await benchQuery(context, ingest.assetId)));
      if (chosen.has('refresh')) rows.push(await benchRefresh(context, ingest.assetId));
    }
    if (chosen.has('dialect-ingest')) rows.push(await benchDialectIngest(context));
    if (chosen.has('catalogue')) rows.push(await benchCatalogue(context));
    if (chosen.has('scale-out')) rows.push(await benchScaleOut(context));
    if (chosen.has('connector')) {
      // The connector row reports the API's peak memory: like the ingest row, it gets an API
      // process of its own, so the figure is the run's and not the garbage the rows before it
      // left in V8's heap (kept until the heap's next full collection).
      const heldMb = rssMb(api.pid);
      await api.stop();
      // Same port: the bench user's client (its session and key) talks to the new process.
      api = await startApi(
        database.url,
        join(RESULTS, 'api-server-connector.log'),
        Number(new URL(api.origin).port),
      );
      context.api = api;
      log(
        `API restarted for the connector row (pid ${api.pid}); the previous process held ${heldMb.toFixed(0)} MB`,
      );
      rows.push(await benchConnector(context, heldMb));
    }
    if (chosen.has('incremental')) rows.push(await benchIncremental(context));
    if (chosen.has('live-refresh')) rows.push(await benchLiveRefresh(context));
    if (chosen.has('tenant-isolation')) rows.push(...(await benchTenantIsolation(context)));

    const report: BenchReport = {
      startedAt: startedAt.toISOString(),
      seconds: (Date.now() - startedAt.getTime()) / 1000,
      machine: {
        cpus: cpus().length,
        memoryGb: Math.round(totalmem() / 2 ** 30),
        node: process.version,
        postgres,
        loadAverage: loadavg(),
      },
      settings: { ...settings, only: settings.only.join(',') },
      rows,
    };
    console.log('');
    for (const row of rows) {
      console.log(
        `${row.met ? 'met   ' : 'MISSED'} ${row.what}: ${formatFigure(row.ours, row.unit)} vs ` +
          `${formatFigure(row.baseline, row.unit)} = ${row.ratio.toFixed(2)}× (target ${row.target})`,
      );
    }
    for (const path of writeReport(RESULTS, report)) log(`wrote ${path}`);
  } finally {
    await api?.stop();
    await database.drop();
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? (error.stack ?? error.message) : error);
  process.exit(1);
});
