import { BenchContext, inTurn } from '../context';
import { psqlOutputBytes, timePsql, withClient } from '../database';
import { Figure, rssMb, summarise, timed, withPeakRss } from '../measure';
import type { BenchRow } from '../report';

const TARGET_RATIO = 1.2;
/** Memory growth we still call flat for a whole-result stream: buffers, not rows. */
const FLAT_GROWTH_MB = 50;

interface HeldDataset {
  /** The name user SQL reads it by. */
  readableName: string;
  /** The same table as psql reads it, straight from the data schema. */
  table: string;
  columns: string;
}

async function heldDataset(databaseUrl: string, assetId: string): Promise<HeldDataset> {
  return withClient(databaseUrl, async (client) => {
    const { rows } = await client.query(
      `SELECT readable_name, table_name, columns FROM assets WHERE id = $1`,
      [assetId],
    );
    const columns = (rows[0].columns as Array<{ name: string }>).map((column) => `"${column.name}"`);
    return {
      readableName: rows[0].readable_name as string,
      table: `data."${rows[0].table_name}"`,
      columns: columns.join(', '),
    };
  });
}

/** Queries are rate-limited per user; the benchmark asks more often than a person would. */
async function resetQueryLimits(databaseUrl: string): Promise<void> {
  await withClient(databaseUrl, (client) =>
    client.query(`DELETE FROM rate_limit_buckets WHERE key LIKE 'query:%'`),
  );
}

function groupBy(table: string): string {
  return (
    `SELECT category, region, count(*) AS orders, sum(amount) AS revenue, avg(rating) AS rating ` +
    `FROM ${table} GROUP BY category, region ORDER BY category, region`
  );
}

function spread(figure: Figure, unit: string): string {
  return `${figure.median.toFixed(2)} ${unit} (${figure.min.toFixed(2)}–${figure.max.toFixed(2)})`;
}

/** A GROUP BY over the whole dataset: the JSON answer of POST /api/query against psql -c. */
async function benchGroupBy(context: BenchContext, dataset: HeldDataset): Promise<BenchRow> {
  const { settings, databaseUrl, user } = context;
  const headers = { 'x-api-key': user.apiKey };
  const request = { sql: groupBy(dataset.readableName) };
  const baselineSql = groupBy(dataset.table);
  const ours = async () => {
    const { result, seconds } = await timed(() =>
      user.client.json<{ row_count: number }>('POST', '/api/query', 200, { json: request, headers }),
    );
    if (result.row_count < 2) throw new Error(`the GROUP BY answered ${result.row_count} rows`);
    return seconds;
  };
  // Warm-up: the first query of a process plans its path, syncs the role and opens the pool.
  await resetQueryLimits(databaseUrl);
  await ours();
  await timePsql(databaseUrl, baselineSql);
  const oursSeconds: number[] = [];
  const baselineSeconds: number[] = [];
  for (let run = 0; run < settings.runs; run++) {
    await resetQueryLimits(databaseUrl);
    await inTurn(
      run,
      async () => void oursSeconds.push(await ours()),
      async () => void baselineSeconds.push(await timePsql(databaseUrl, baselineSql)),
    );
    context.log(
      `query GROUP BY run ${run + 1}: API ${oursSeconds[run].toFixed(3)} s, psql ${baselineSeconds[run].toFixed(3)} s`,
    );
  }
  const oursFigure = summarise(oursSeconds);
  const baselineFigure = summarise(baselineSeconds);
  const ratio = oursFigure.median / baselineFigure.median;
  return {
    what: `Query GROUP BY over a held ${settings.rows.toLocaleString('en')}-row dataset`,
    ourPath: 'POST /api/query with X-API-Key, JSON answer (40 groups: count, sum, avg)',
    baselinePath: 'psql -c with the same statement on the same database, output to /dev/null',
    unit: 's',
    ours: oursFigure,
    baseline: baselineFigure,
    ratio,
    target: `≤ ${TARGET_RATIO}×`,
    met: ratio <= TARGET_RATIO,
    side: [],
    notes: [
      'Both sides include their fixed costs: the API its key, rate limit, access, check and role sync; psql its process start and connection.',
    ],
  };
}

/** Every row of the dataset through POST /api/query as CSV against COPY TO STDOUT. */
async function benchCsvResult(context: BenchContext, dataset: HeldDataset): Promise<BenchRow> {
  const { settings, databaseUrl, api, user } = context;
  const headers = { 'x-api-key': user.apiKey };
  const request = {
    sql: `SELECT ${dataset.columns} FROM ${dataset.readableName}`,
    format: 'csv',
    limit: settings.rows,
  };
  const baselineSql = `COPY (SELECT ${dataset.columns} FROM ${dataset.table}) TO STDOUT (FORMAT csv, HEADER)`;
  const copyBytes = await psqlOutputBytes(databaseUrl, baselineSql);
  const oursSeconds: number[] = [];
  const baselineSeconds: number[] = [];
  const growthMb: number[] = [];
  const peakMb: number[] = [];
  let bytes = 0;
  for (let run = 0; run < settings.runs; run++) {
    await resetQueryLimits(databaseUrl);
    await inTurn(
      run,
      async () => {
        const before = rssMb(api.pid);
        const {
          result,
          seconds,
          peakMb: peak,
        } = await withPeakRss(api.pid, () => user.client.drain('/api/query', headers, 0, request));
        if (result.status !== 200) throw new Error(`POST /api/query answered ${result.status}`);
        // The same bytes as COPY writes, or the two sides did not do the same work.
        if (result.bytes !== copyBytes)
          throw new Error(`the CSV answer has ${result.bytes} bytes, COPY wrote ${copyBytes}`);
        bytes = result.bytes;
        oursSeconds.push(seconds);
        peakMb.push(peak);
        growthMb.push(peak - before);
      },
      async () => void baselineSeconds.push(await timePsql(databaseUrl, baselineSql)),
    );
    context.log(
      `query CSV run ${run + 1}: API ${oursSeconds[run].toFixed(2)} s (RSS +${growthMb[run].toFixed(0)} MB, ` +
        `peak ${peakMb[run].toFixed(0)} MB), psql COPY ${baselineSeconds[run].toFixed(2)} s`,
    );
  }
  const oursFigure = summarise(oursSeconds);
  const baselineFigure = summarise(baselineSeconds);
  const growth = summarise(growthMb);
  const ratio = oursFigure.median / baselineFigure.median;
  context.log(
    `query CSV: API ${spread(oursFigure, 's')} against COPY ${spread(baselineFigure, 's')}, RSS growth ${spread(growth, 'MB')}`,
  );
  return {
    what: `Query result as CSV, ${settings.rows.toLocaleString('en')} rows`,
    ourPath: `POST /api/query with X-API-Key, format csv, limit ${settings.rows.toLocaleString('en')}: ${(bytes / 1e6).toFixed(0)} MB read and discarded by the client`,
    baselinePath:
      'psql -c "COPY (SELECT <columns> FROM <table>) TO STDOUT (FORMAT csv, HEADER)", output to /dev/null (byte for byte the same CSV)',
    unit: 's',
    ours: oursFigure,
    baseline: baselineFigure,
    ratio,
    target: `≤ ${TARGET_RATIO}×; flat memory`,
    met: ratio <= TARGET_RATIO && growth.max <= FLAT_GROWTH_MB,
    side: [
      { label: 'API RSS growth', figure: growth, unit: 'MB' },
      { label: 'API peak RSS', figure: summarise(peakMb), unit: 'MB' },
    ],
    notes: [
      `"Flat memory": the API's RSS during the stream at most ${FLAT_GROWTH_MB} MB over its RSS just before, whatever the row count.`,
    ],
  };
}

/** User SQL over the ingest's dataset: an aggregate and a whole-table CSV result. */
export async function benchQuery(context: BenchContext, assetId: string): Promise<BenchRow[]> {
  const dataset = await heldDataset(context.databaseUrl, assetId);
  return [await benchGroupBy(context, dataset), await benchCsvResult(context, dataset)];
}
