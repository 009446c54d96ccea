import { BenchContext, inTurn } from '../context';
import { GZIP_LEVEL } from '../../src/common/middleware/compression.middleware';
import { psqlTimings, timePsql, timePsqlGzip, withClient } from '../database';
import { rssMb, summarise, withPeakRss } from '../measure';
import type { BenchRow } from '../report';

/** Memory growth we still call flat for a whole-table stream: buffers, not rows. */
const FLAT_GROWTH_MB = 50;

interface StoredDataset {
  table: string;
  columns: string[];
  title: string;
}

async function storedDataset(databaseUrl: string, assetId: string): Promise<StoredDataset> {
  return withClient(databaseUrl, async (client) => {
    const { rows } = await client.query(`SELECT table_name, columns, title FROM assets WHERE id = $1`, [
      assetId,
    ]);
    const columns = (rows[0].columns as Array<{ name: string }>).map((column) => `"${column.name}"`);
    return { table: `data."${rows[0].table_name}"`, columns, title: rows[0].title as string };
  });
}

/** Stream calls are rate-limited per key; the benchmark calls more often than a BI tool would. */
async function resetStreamLimits(databaseUrl: string): Promise<void> {
  await withClient(databaseUrl, (client) =>
    client.query(`DELETE FROM rate_limit_buckets WHERE key LIKE 'stream:%'`),
  );
}

interface FullTableOptions {
  what: string;
  path: string;
  baselineSql: string;
  baselineText: string;
  target: number;
  /** Ask for gzip, and pipe the baseline's COPY through `gzip -<level>` at the API's level. */
  gzipLevel?: number;
}

async function fullTable(context: BenchContext, options: FullTableOptions): Promise<BenchRow> {
  const { settings, databaseUrl, api, user } = context;
  const oursSeconds: number[] = [];
  const growthMb: number[] = [];
  const peakMb: number[] = [];
  const baselineSeconds: number[] = [];
  let bytes = 0;
  const headers: Record<string, string> = { 'x-api-key': user.apiKey };
  if (options.gzipLevel !== undefined) headers['accept-encoding'] = 'gzip';
  for (let run = 0; run < settings.runs; run++) {
    await resetStreamLimits(databaseUrl);
    await inTurn(
      run,
      async () => {
        const before = rssMb(api.pid);
        const {
          result,
          seconds,
          peakMb: peak,
        } = await withPeakRss(api.pid, () => user.client.drain(options.path, headers));
        if (result.status !== 200) throw new Error(`${options.path} answered ${result.status}`);
        if (options.gzipLevel !== undefined && result.headers['content-encoding'] !== 'gzip') {
          throw new Error(`${options.path} answered without gzip`);
        }
        bytes = result.bytes;
        oursSeconds.push(seconds);
        peakMb.push(peak);
        growthMb.push(peak - before);
      },
      async () => {
        baselineSeconds.push(
          options.gzipLevel === undefined
            ? await timePsql(databaseUrl, options.baselineSql)
            : await timePsqlGzip(databaseUrl, options.baselineSql, options.gzipLevel),
        );
      },
    );
    context.log(
      `${options.what} run ${run + 1}: API ${oursSeconds[run].toFixed(2)} s (RSS +${growthMb[run].toFixed(0)} MB, ` +
        `peak ${peakMb[run].toFixed(0)} MB), psql ${baselineSeconds[run].toFixed(2)} s`,
    );
  }
  const ours = summarise(oursSeconds);
  const baseline = summarise(baselineSeconds);
  const growth = summarise(growthMb);
  const ratio = ours.median / baseline.median;
  return {
    what: options.what,
    ourPath:
      `GET ${options.path.replace(/\/data\/[^?]+/, '/data/{id}')} with X-API-Key` +
      (options.gzipLevel === undefined ? '' : ' and Accept-Encoding: gzip') +
      `, ${(bytes / 1e6).toFixed(0)} MB${options.gzipLevel === undefined ? '' : ' gzipped'} read and discarded by the client`,
    baselinePath: options.baselineText,
    unit: 's',
    ours,
    baseline,
    ratio,
    target: `≤ ${options.target}×; flat memory`,
    met: ratio <= options.target && growth.max <= FLAT_GROWTH_MB,
    side: [
      { label: 'API RSS growth', figure: growth, unit: 'MB' },
      { label: 'API peak RSS', figure: summarise(peakMb), unit: 'MB' },
    ],
    notes: [
      `"Flat memory" here: RSS growth during the stream at most ${FLAT_GROWTH_MB} MB whatever the table size.`,
    ],
  };
}

async function generalStream(
  context: BenchContext,
  dataset: StoredDataset,
  assetId: string,
): Promise<BenchRow> {
  const { settings, databaseUrl, user } = context;
  const latenciesMs: number[] = [];
  const baselineMs: number[] = [];
  const tagged = `SELECT '${assetId}'::uuid AS dataset_id, '${dataset.title.replace(/'/g, "''")}'::text AS dataset_title, ${dataset.columns.join(', ')} FROM ${dataset.table} LIMIT 5000`;
  const baselineSql = `COPY (SELECT row_to_json(r) FROM (${tagged}) r) TO STDOUT`;
  // Warm-up: first calls pay for connection set-up and plan caching on both sides.
  await resetStreamLimits(databaseUrl);
  for (let index = 0; index < 3; index++)
    await user.client.drain('/api/stream/data', { 'x-api-key': user.apiKey });
  await psqlTimings(databaseUrl, baselineSql, 3);
  for (let run = 0; run < settings.runs; run++) {
    await resetStreamLimits(databaseUrl);
    const oursRun: number[] = [];
    await inTurn(
      run,
      async () => {
        for (let index = 0; index < settings.generalRequests; index++) {
          const started = process.hrtime.bigint();
          const answer = await user.client.drain('/api/stream/data', { 'x-api-key': user.apiKey });
          if (answer.status !== 200) throw new Error(`/api/stream/data answered ${answer.status}`);
          oursRun.push(Number(process.hrtime.bigint() - started) / 1e6);
        }
      },
      async () => {
        baselineMs.push(...(await psqlTimings(databaseUrl, baselineSql, settings.generalRequests)));
      },
    );
    latenciesMs.push(...oursRun);
    context.log(`general stream run ${run + 1}: API p50 ${summarise(oursRun).median.toFixed(1)} ms`);
  }
  const ours = summarise(latenciesMs);
  const baseline = summarise(baselineMs);
  const sorted = [...latenciesMs].sort((a, b) => a - b);
  const p95 = sorted[Math.floor(0.95 * (sorted.length - 1))];
  return {
    what: 'General stream, 5,000 rows, JSON',
    ourPath: `GET /api/stream/data with X-API-Key, ${latenciesMs.length} sequential requests on a kept-alive connection (time to the last byte)`,
    baselinePath: 'the same 5,000 rows as row_to_json through COPY in one open psql session (\\timing)',
    unit: 'ms',
    ours,
    baseline,
    ratio: ours.median / baseline.median,
    // psql in the same run is the yardstick: an absolute figure says more about the machine's load.
    target: 'p50 ≤ 1.3× psql',
    met: ours.median / baseline.median <= 1.3,
    side: [{ label: 'p95', figure: summarise([p95]), unit: 'ms' }],
    notes: ['Figures are over single requests: the median is the p50.'],
  };
}

/** Whole-table streams (CSV and JSON) and the general link, against psql doing the same COPY. */
export async function benchStreams(context: BenchContext, assetId: string): Promise<BenchRow[]> {
  const dataset = await storedDataset(context.databaseUrl, assetId);
  const select = `SELECT ${dataset.columns.join(', ')} FROM ${dataset.table}`;
  const rows = context.settings.rows.toLocaleString('en');
  const csv = await fullTable(context, {
    what: `Full-table CSV stream, ${rows} rows`,
    path: `/api/stream/data/${assetId}?format=csv`,
    baselineSql: `COPY (${select}) TO STDOUT (FORMAT csv)`,
    baselineText:
      'psql -c "COPY (SELECT <columns> FROM <table>) TO STDOUT (FORMAT csv)", output to /dev/null',
    target: 1.2,
  });
  const json = await fullTable(context, {
    what: `Full-table JSON stream, ${rows} rows`,
    path: `/api/stream/data/${assetId}`,
    baselineSql: `COPY (SELECT row_to_json(t) FROM (${select}) t) TO STDOUT`,
    baselineText:
      'psql -c "COPY (SELECT row_to_json(t) FROM (SELECT <columns> FROM <table>) t) TO STDOUT", output to /dev/null',
    target: 1.5,
  });
  const general = await generalStream(context, dataset, assetId);
  return [csv, json, general];
}

/**
 * The whole-table CSV and JSON streams again, gzipped for a client that accepts it, against psql's
 * COPY piped through gzip at the level the API uses: the compression costs the API what it costs
 * a shell pipeline.
 */
export async function benchGzipStreams(context: BenchContext, assetId: string): Promise<BenchRow[]> {
  const dataset = await storedDataset(context.databaseUrl, assetId);
  const select = `SELECT ${dataset.columns.join(', ')} FROM ${dataset.table}`;
  const rows = context.settings.rows.toLocaleString('en');
  const csv = await fullTable(context, {
    what: `Full-table CSV stream, gzip, ${rows} rows`,
    path: `/api/stream/data/${assetId}?format=csv`,
    baselineSql: `COPY (${select}) TO STDOUT (FORMAT csv)`,
    baselineText: `psql -c "COPY (SELECT <columns> FROM <table>) TO STDOUT (FORMAT csv)" | gzip -${GZIP_LEVEL} > /dev/null`,
    target: 1.1,
    gzipLevel: GZIP_LEVEL,
  });
  const json = await fullTable(context, {
    what: `Full-table JSON stream, gzip, ${rows} rows`,
    path: `/api/stream/data/${assetId}`,
    baselineSql: `COPY (SELECT row_to_json(t) FROM (${select}) t) TO STDOUT`,
    baselineText: `psql -c "COPY (SELECT row_to_json(t) FROM (SELECT <columns> FROM <table>) t) TO STDOUT" | gzip -${GZIP_LEVEL} > /dev/null`,
    target: 1.1,
    gzipLevel: GZIP_LEVEL,
  });
  return [csv, json];
}
