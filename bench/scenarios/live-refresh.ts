import { BenchContext, inTurn } from '../context';
import { summarise } from '../measure';
import type { BenchRow } from '../report';
import { startFakeApi } from './connector';

const PAGE_SIZE = 1000;
/** Pause between a reader's requests: a steady reader, not a load test. */
const READER_PAUSE_MS = 50;

/** What a reader saw while the published table was refreshed. */
interface ReaderTally {
  requests: number;
  errors: number;
  /** Answers whose total was not the table's row count: a mix of old and new rows. */
  mixedTotals: number;
}

/**
 * A refresh of a published connector table against the same run of an unpublished one (both
 * override runs of the same records from the local fake API), while a reader asks the published
 * dataset for its first rows throughout and checks every answer's status and total.
 */
export async function benchLiveRefresh(context: BenchContext): Promise<BenchRow> {
  const { settings, user } = context;
  const records = settings.liveRecords;
  const pages = records / PAGE_SIZE;
  const fake = await startFakeApi(PAGE_SIZE, records);
  const plainSeconds: number[] = [];
  const liveSeconds: number[] = [];
  const tally: ReaderTally = { requests: 0, errors: 0, mixedTotals: 0 };
  try {
    const spec = {
      title: 'Benchmark live source',
      protocol: 'http',
      base_url: fake.origin,
      operations: [
        {
          id: 'records',
          name: 'Records',
          method: 'GET',
          url_path: '/records',
          response_path: 'data',
          pagination: {
            type: 'page',
            page_param: 'page',
            start_page: 1,
            size_param: 'per_page',
            page_size: PAGE_SIZE,
            total_path: 'total',
          },
        },
      ],
      fields: [],
    };
    const connector = await user.client.json<{ id: string }>('POST', '/api/connectors/upload', 201, {
      json: { title: 'Benchmark live source', spec },
    });
    const activate = () =>
      user.client.json<{ id: string }>('POST', '/api/connectors/activate', 201, {
        json: { connector_id: connector.id, settings: { override: true } },
      });
    const plain = await activate();
    const live = await activate();
    const run = (instanceId: string) =>
      user.client.json<{ rowCount: number }>('POST', `/api/connectors/run/${instanceId}`, 200);
    // Untimed first runs fill both tables; the second one's is then published.
    await run(plain.id);
    await run(live.id);
    const instances = await user.client.json<Array<{ id: string; tables: Array<{ readable_name: string }> }>>(
      'GET',
      '/api/connectors/my',
      200,
    );
    const table = instances.find((instance) => instance.id === live.id)!.tables[0].readable_name;
    const product = await user.client.json<{ id: string }>(
      'POST',
      `/api/connectors/instance/${live.id}/publish`,
      201,
      { json: { table, title: 'Benchmark live product' } },
    );

    let reading = true;
    const reader = (async () => {
      while (reading) {
        tally.requests++;
        try {
          const page = await user.client.json<{ total: number; rows: unknown[] }>(
            'GET',
            `/api/assets/${product.id}/data?limit=10`,
            200,
          );
          if (page.total !== records || page.rows.length !== 10) tally.mixedTotals++;
        } catch {
          tally.errors++;
        }
        await new Promise((resolve) => setTimeout(resolve, READER_PAUSE_MS));
      }
    })();
    try {
      for (let attempt = 0; attempt < settings.runs; attempt++) {
        await inTurn(
          attempt,
          async () => {
            const started = process.hrtime.bigint();
            await run(plain.id);
            plainSeconds.push(Number(process.hrtime.bigint() - started) / 1e9);
          },
          async () => {
            const started = process.hrtime.bigint();
            // Run Now answers once the run's end has been heard: the product's new version is in.
            await run(live.id);
            liveSeconds.push(Number(process.hrtime.bigint() - started) / 1e9);
          },
        );
        context.log(
          `live refresh ${attempt + 1}: published ${liveSeconds[attempt].toFixed(2)} s, unpublished ${plainSeconds[attempt].toFixed(2)} s`,
        );
      }
    } finally {
      reading = false;
      await reader;
    }
  } finally {
    fake.server.closeAllConnections();
    fake.server.close();
  }
  const ours = summarise(liveSeconds);
  const baseline = summarise(plainSeconds);
  const ratio = ours.median / baseline.median;
  return {
    what: `Refresh of a published connector table, ${records.toLocaleString('en')} records over ${pages} pages`,
    ourPath: 'POST /api/connectors/run/{id} of a published table, until the new version is swapped in',
    baselinePath: 'the same run (same records, override on) of a connection whose table is not published',
    unit: 's',
    ours,
    baseline,
    ratio,
    target: `≤ 1.3×; a reader of the first rows throughout gets no error and no mixed total (${tally.requests} reads: ${tally.errors} errors, ${tally.mixedTotals} mixed)`,
    met: ratio <= 1.3 && tally.errors === 0 && tally.mixedTotals === 0,
    side: [],
    notes: [
      'Each refresh copies the whole connector table into a new dataset table and swaps it in, in one transaction, with a version entry.',
      `The reader asks GET /api/assets/{id}/data?limit=10 every ${READER_PAUSE_MS} ms during every timed run of both sides.`,
    ],
  };
}
