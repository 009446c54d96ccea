import { BenchContext, inTurn } from '../context';
import { withClient } from '../database';
import { rssMb, summarise, timed, withPeakRss } from '../measure';
import type { BenchRow } from '../report';

/** Memory growth we still call flat for a whole-table read: buffers and one page, not the table. */
const FLAT_GROWTH_MB = 50;
const NEXT_LINK = '"@odata.nextLink":"';

/** OData calls are rate-limited per key; the benchmark calls more often than a BI tool would. */
async function resetLimits(databaseUrl: string): Promise<void> {
  await withClient(databaseUrl, (client) =>
    client.query(`DELETE FROM rate_limit_buckets WHERE key LIKE 'odata:%' OR key LIKE 'stream:%'`),
  );
}

/**
 * The entity set of the benchmark dataset: the asset's readable name (what a BI tool picks its
 * table by), checked against the service document so a renamed or unlisted set fails here.
 */
async function entitySetOf(context: BenchContext, assetId: string): Promise<string> {
  const asset = await context.user.client.json<{ readable_name: string }>(
    'GET',
    `/api/assets/${assetId}`,
    200,
  );
  const document = await context.user.client.json<{ value: Array<{ name: string }> }>(
    'GET',
    '/api/odata',
    200,
    {
      headers: { 'x-api-key': context.user.apiKey },
    },
  );
  if (!document.value.some((entry) => entry.name === asset.readable_name)) {
    throw new Error(`the OData service document does not list ${asset.readable_name} (asset ${assetId})`);
  }
  return asset.readable_name;
}

/**
 * Reads an entity set to the end as a BI tool does: one request per page, following
 * `@odata.nextLink` (found in the last bytes of each page, the rest read and dropped as the JSON
 * stream's client does, so the client's own buffering and parsing are not what is timed). Answers the pages and bytes read.
 */
async function readAllPages(context: BenchContext, path: string): Promise<{ pages: number; bytes: number }> {
  let next: string | undefined = path;
  let pages = 0;
  let bytes = 0;
  while (next) {
    const answer = await context.user.client.drain(next, { 'x-api-key': context.user.apiKey }, 4096);
    const tail = answer.tail.toString();
    if (answer.status !== 200) throw new Error(`${next} answered ${answer.status}: ${tail.slice(-300)}`);
    pages++;
    bytes += answer.bytes;
    const at = tail.lastIndexOf(NEXT_LINK);
    if (at === -1) {
      next = undefined;
    } else {
      const link = JSON.parse(tail.slice(at + NEXT_LINK.length - 1, tail.lastIndexOf('"') + 1)) as string;
      const url = new URL(link);
      next = `${url.pathname}${url.search}`;
    }
  }
  return { pages, bytes };
}

async function pagedVersusStream(
  context: BenchContext,
  assetId: string,
  entitySet: string,
): Promise<BenchRow> {
  const { settings, databaseUrl, api, user } = context;
  const odataSeconds: number[] = [];
  const streamSeconds: number[] = [];
  const growthMb: number[] = [];
  let pages = 0;
  let bytes = 0;
  for (let run = 0; run < settings.runs; run++) {
    await resetLimits(databaseUrl);
    await inTurn(
      run,
      async () => {
        const before = rssMb(api.pid);
        const { result, seconds, peakMb } = await withPeakRss(api.pid, () =>
          readAllPages(context, `/api/odata/${entitySet}`),
        );
        ({ pages, bytes } = result);
        odataSeconds.push(seconds);
        growthMb.push(peakMb - before);
      },
      async () => {
        const { result, seconds } = await timed(() =>
          user.client.drain(`/api/stream/data/${assetId}`, { 'x-api-key': user.apiKey }),
        );
        if (result.status !== 200) throw new Error(`the JSON stream answered ${result.status}`);
        streamSeconds.push(seconds);
      },
    );
    context.log(
      `OData paged read run ${run + 1}: ${odataSeconds[run].toFixed(2)} s over ${pages} pages ` +
        `(RSS +${growthMb[run].toFixed(0)} MB), JSON stream ${streamSeconds[run].toFixed(2)} s`,
    );
  }
  const ours = summarise(odataSeconds);
  const baseline = summarise(streamSeconds);
  const growth = summarise(growthMb);
  const ratio = ours.median / baseline.median;
  return {
    what: `OData feed read page by page, ${settings.rows.toLocaleString('en')} rows`,
    ourPath: `GET /api/odata/{set} and every @odata.nextLink after it (${pages} pages, ${(bytes / 1e6).toFixed(0)} MB), one at a time on a kept-alive connection`,
    baselinePath: 'GET /api/stream/data/{id} (the JSON stream link) in the same run',
    unit: 's',
    ours,
    baseline,
    ratio,
    target: `≤ 1.5×; flat memory`,
    met: ratio <= 1.5 && growth.max <= FLAT_GROWTH_MB,
    side: [{ label: 'API RSS growth', figure: growth, unit: 'MB' }],
    notes: [`"Flat memory" here: RSS growth during the read at most ${FLAT_GROWTH_MB} MB.`],
  };
}

/** A window of order dates holding about 1% of the rows, around the middle of the range. */
async function onePercentWindow(
  context: BenchContext,
  assetId: string,
): Promise<{ from: string; to: string; rows: number }> {
  return withClient(context.databaseUrl, async (client) => {
    const { rows: assets } = await client.query(`SELECT table_name FROM assets WHERE id = $1`, [assetId]);
    const table = `data."${assets[0].table_name}"`;
    const { rows } = await client.query(
      `SELECT to_char(percentile_disc(0.5) WITHIN GROUP (ORDER BY order_date), 'YYYY-MM-DD') AS from,
              to_char(percentile_disc(0.51) WITHIN GROUP (ORDER BY order_date), 'YYYY-MM-DD') AS to FROM ${table}`,
    );
    const { from, to } = rows[0] as { from: string; to: string };
    const { rows: counted } = await client.query(
      `SELECT count(*)::int AS rows FROM ${table} WHERE order_date >= $1 AND order_date < $2`,
      [from, to],
    );
    return { from, to, rows: counted[0].rows as number };
  });
}

async function dateRangeVersusFullRead(
  context: BenchContext,
  assetId: string,
  entitySet: string,
): Promise<BenchRow> {
  const { settings, databaseUrl } = context;
  const window = await onePercentWindow(context, assetId);
  const filter = encodeURIComponent(`order_date ge ${window.from} and order_date lt ${window.to}`);
  const filtered = `/api/odata/${entitySet}?$filter=${filter}`;
  // The first date filter builds the index on order_date: done once before timing, as a BI tool's first refresh would.
  await resetLimits(databaseUrl);
  const first = await timed(() => readAllPages(context, filtered));
  context.log(`first date-range read (builds the index): ${first.seconds.toFixed(2)} s`);
  const filteredSeconds: number[] = [];
  const fullSeconds: number[] = [];
  for (let run = 0; run < settings.runs; run++) {
    await resetLimits(databaseUrl);
    await inTurn(
      run,
      async () => {
        filteredSeconds.push((await timed(() => readAllPages(context, filtered))).seconds);
      },
      async () => {
        fullSeconds.push((await timed(() => readAllPages(context, `/api/odata/${entitySet}`))).seconds);
      },
    );
    context.log(
      `date-range run ${run + 1}: ${filteredSeconds[run].toFixed(3)} s vs full read ${fullSeconds[run].toFixed(2)} s`,
    );
  }
  const ours = summarise(filteredSeconds);
  const baseline = summarise(fullSeconds);
  const ratio = ours.median / baseline.median;
  return {
    what: `OData $filter on a date range, ${window.rows.toLocaleString('en')} of ${settings.rows.toLocaleString('en')} rows`,
    ourPath: `GET /api/odata/{set}?$filter=order_date ge ${window.from} and order_date lt ${window.to}, every page`,
    baselinePath: 'the whole entity set through the OData feed, every page, in the same run',
    unit: 's',
    ours,
    baseline,
    ratio,
    target: '≤ 0.05×',
    met: ratio <= 0.05,
    side: [
      { label: 'first filtered read, building the index', figure: summarise([first.seconds]), unit: 's' },
    ],
    notes: [
      'The first read that bounds order_date creates its index; it is timed apart and not in the figure.',
    ],
  };
}

/** The OData feed read to the end against the JSON stream link, and a 1% date window against the full read. */
export async function benchOData(context: BenchContext, assetId: string): Promise<BenchRow[]> {
  await resetLimits(context.databaseUrl);
  const entitySet = await entitySetOf(context, assetId);
  // Warm-up: the first read builds the row-id index that keyset pages follow.
  const warm = await timed(() => readAllPages(context, `/api/odata/${entitySet}?$top=1`));
  context.log(`OData warm-up (row-id index): ${warm.seconds.toFixed(2)} s`);
  return [
    await pagedVersusStream(context, assetId, entitySet),
    await dateRangeVersusFullRead(context, assetId, entitySet),
  ];
}
