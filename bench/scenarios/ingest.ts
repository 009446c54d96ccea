import { BENCH_COLUMNS } from '../generate-csv';
import { BenchContext, inTurn } from '../context';
import { quietStart, timePsql, withClient } from '../database';
import { summarise, withPeakRss } from '../measure';
import type { BenchRow } from '../report';

const INGEST_RSS_LIMIT_MB = 200;

/** Removes an uploaded dataset and its table, so repeated uploads do not fill the disk. */
async function dropDataset(databaseUrl: string, assetId: string): Promise<void> {
  await withClient(databaseUrl, async (client) => {
    const { rows } = await client.query(`DELETE FROM assets WHERE id = $1 RETURNING table_name`, [assetId]);
    if (rows[0]) await client.query(`DROP TABLE IF EXISTS data."${rows[0].table_name}"`);
  });
}

/**
 * CSV ingest: the upload through the API (until the new asset answers on GET) against psql
 * \copy of the same file into a table of the same column types. Answers the row and the id of
 * the dataset kept for the stream benchmarks.
 */
export async function benchIngest(context: BenchContext): Promise<{ row: BenchRow; assetId: string }> {
  const { settings, databaseUrl, api, user, csv } = context;
  const oursSeconds: number[] = [];
  const peakMb: number[] = [];
  const baselineSeconds: number[] = [];
  let keptAssetId = '';
  const columns = BENCH_COLUMNS.map(([name, type]) => `${name} ${type}`).join(', ');
  const escapedPath = csv.path.replace(/'/g, "''");

  const ours = async (run: number) => {
    await quietStart(databaseUrl);
    const {
      result: assetId,
      seconds,
      peakMb: peak,
    } = await withPeakRss(api.pid, async () => {
      const answer = await user.client.uploadFile(
        '/api/assets/upload-csv',
        { title: `Benchmark orders ${run + 1}`, category: 'Benchmark' },
        { field: 'file', name: 'orders.csv', path: csv.path },
      );
      if (answer.status !== 201) {
        throw new Error(`Upload answered ${answer.status}: ${answer.body.toString().slice(0, 300)}`);
      }
      const { id } = JSON.parse(answer.body.toString()) as { id: string };
      await user.client.json('GET', `/api/assets/${id}`, 200);
      return id;
    });
    oursSeconds.push(seconds);
    peakMb.push(peak);
    if (keptAssetId) await dropDataset(databaseUrl, keptAssetId);
    keptAssetId = assetId;
  };
  const baseline = async (run: number) => {
    const table = `bench_copy_${run}`;
    await withClient(databaseUrl, (client) => client.query(`CREATE TABLE ${table} (${columns})`));
    await quietStart(databaseUrl);
    baselineSeconds.push(
      await timePsql(databaseUrl, `\\copy ${table} FROM '${escapedPath}' WITH (FORMAT csv, HEADER true)`),
    );
    await withClient(databaseUrl, (client) => client.query(`DROP TABLE ${table}`));
  };

  for (let run = 0; run < settings.runs; run++) {
    await inTurn(
      run,
      () => ours(run),
      () => baseline(run),
    );
    context.log(
      `ingest run ${run + 1}: API ${oursSeconds[run].toFixed(2)} s (peak ${peakMb[run].toFixed(0)} MB), ` +
        `psql \\copy ${baselineSeconds[run].toFixed(2)} s`,
    );
  }

  const oursFigure = summarise(oursSeconds);
  const baselineFigure = summarise(baselineSeconds);
  const peakFigure = summarise(peakMb);
  const ratio = oursFigure.median / baselineFigure.median;
  return {
    assetId: keptAssetId,
    row: {
      what: `CSV ingest, ${settings.rows.toLocaleString('en')} rows`,
      ourPath:
        'POST /api/assets/upload-csv (multipart, streamed from disk) until GET /api/assets/{id} answers',
      baselinePath: 'psql \\copy of the same file into a table with the same column types',
      unit: 's',
      ours: oursFigure,
      baseline: baselineFigure,
      ratio,
      target: `≤ 1.5×; API peak RSS ≤ ${INGEST_RSS_LIMIT_MB} MB`,
      met: ratio <= 1.5 && peakFigure.max <= INGEST_RSS_LIMIT_MB,
      side: [{ label: 'API peak RSS', figure: peakFigure, unit: 'MB' }],
      notes: [
        `The API reads the upload once: column types guessed from the first 4 MB, COPY straight into them while a scanner checks every value, the upload spooled to a temporary file in case a later value needs a second pass (none here); ${(csv.bytes / 1e6).toFixed(0)} MB file.`,
      ],
    },
  };
}
