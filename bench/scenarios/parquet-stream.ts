import { BenchContext, inTurn } from '../context';
import { withClient } from '../database';
import { rssMb, summarise, timed, withPeakRss } from '../measure';
import type { BenchRow } from '../report';

/** Memory growth we still call flat: one row group in JavaScript and in the encoder, not the table. */
const FLAT_GROWTH_MB = 50;
const TARGET_RATIO = 1.5;

/** Bytes of an answer as the client receives it, read once after the timed runs. */
async function answerBytes(
  context: BenchContext,
  path: string,
  headers: Record<string, string>,
): Promise<number> {
  await withClient(context.databaseUrl, (client) =>
    client.query(`DELETE FROM rate_limit_buckets WHERE key LIKE 'stream:%'`),
  );
  const answer = await context.user.client.drain(path, headers);
  if (answer.status !== 200) throw new Error(`${path} answered ${answer.status}`);
  return answer.bytes;
}

/**
 * The whole dataset as a Parquet file (Snappy, the default) against the same rows as the API's
 * CSV stream, both read by the client to the last byte in the same run, in alternating order;
 * then the file's size against the gzipped CSV stream's (gzip level 1), and the other codecs'.
 */
export async function benchParquetStream(context: BenchContext, assetId: string): Promise<BenchRow> {
  const { settings, databaseUrl, api, user } = context;
  const headers = { 'x-api-key': user.apiKey };
  const parquetSeconds: number[] = [];
  const csvSeconds: number[] = [];
  const gzipParquetSeconds: number[] = [];
  let gzipParquetBytes = 0;
  const zstdParquetSeconds: number[] = [];
  let zstdParquetBytes = 0;
  const growthMb: number[] = [];
  let parquetBytes = 0;
  let csvBytes = 0;
  // The first full read of freshly loaded rows writes their hint bits (PostgreSQL's record of
  // which transactions committed), which makes that read slower: done once here, so both paths
  // read the table in the same state.
  const settle = await user.client.drain(`/api/stream/data/${assetId}?format=csv`, headers);
  if (settle.status !== 200) throw new Error(`format=csv answered ${settle.status}`);
  // The process's first Parquet file starts the encoder thread that later files reuse: a cost
  // paid once, whatever the table's size, reported apart from the runs' growth.
  const beforeFirst = rssMb(api.pid);
  const first = await withPeakRss(api.pid, () =>
    user.client.drain(`/api/stream/data/${assetId}?format=parquet&limit=1000`, headers),
  );
  if (first.result.status !== 200) throw new Error(`format=parquet answered ${first.result.status}`);
  const firstFileMb = first.peakMb - beforeFirst;
  context.log(
    `parquet stream: the first file (1,000 rows) started the encoder thread, RSS +${firstFileMb.toFixed(0)} MB`,
  );
  for (let run = 0; run < settings.runs; run++) {
    // Stream calls are rate-limited per key; the benchmark calls more often than a BI tool would.
    await withClient(databaseUrl, (client) =>
      client.query(`DELETE FROM rate_limit_buckets WHERE key LIKE 'stream:%'`),
    );
    await inTurn(
      run,
      async () => {
        const before = rssMb(api.pid);
        const { result, seconds, peakMb } = await withPeakRss(api.pid, () =>
          user.client.drain(`/api/stream/data/${assetId}?format=parquet`, headers),
        );
        if (result.status !== 200) throw new Error(`format=parquet answered ${result.status}`);
        parquetBytes = result.bytes;
        parquetSeconds.push(seconds);
        growthMb.push(peakMb - before);
      },
      async () => {
        const { result, seconds } = await timed(() =>
          user.client.drain(`/api/stream/data/${assetId}?format=csv`, headers),
        );
        if (result.status !== 200) throw new Error(`format=csv answered ${result.status}`);
        csvBytes = result.bytes;
        csvSeconds.push(seconds);
      },
    );
    // The other codecs, timed in the same run for comparison.
    const gzipped = await timed(() =>
      user.client.drain(`/api/stream/data/${assetId}?format=parquet&compression=gzip`, headers),
    );
    if (gzipped.result.status !== 200) throw new Error(`compression=gzip answered ${gzipped.result.status}`);
    gzipParquetBytes = gzipped.result.bytes;
    gzipParquetSeconds.push(gzipped.seconds);
    const zstd = await timed(() =>
      user.client.drain(`/api/stream/data/${assetId}?format=parquet&compression=zstd`, headers),
    );
    if (zstd.result.status !== 200) throw new Error(`compression=zstd answered ${zstd.result.status}`);
    zstdParquetBytes = zstd.result.bytes;
    zstdParquetSeconds.push(zstd.seconds);
    context.log(
      `parquet stream run ${run + 1}: Parquet ${parquetSeconds[run].toFixed(2)} s ` +
        `(RSS +${growthMb[run].toFixed(0)} MB), CSV ${csvSeconds[run].toFixed(2)} s, ` +
        `Parquet with compression=gzip ${gzipParquetSeconds[run].toFixed(2)} s, ` +
        `with compression=zstd ${zstdParquetSeconds[run].toFixed(2)} s`,
    );
  }
  const ours = summarise(parquetSeconds);
  const baseline = summarise(csvSeconds);
  const growth = summarise(growthMb);
  const gzipParquet = summarise(gzipParquetSeconds);
  const zstdParquet = summarise(zstdParquetSeconds);
  const ratio = ours.median / baseline.median;
  const path = `/api/stream/data/${assetId}`;
  const gzipCsvBytes = await answerBytes(context, `${path}?format=csv`, {
    ...headers,
    'accept-encoding': 'gzip',
  });
  const plainParquetBytes = await answerBytes(context, `${path}?format=parquet&compression=none`, headers);
  const sizeRatio = parquetBytes / gzipCsvBytes;
  const megabytes = (bytes: number) => `${(bytes / 1e6).toFixed(1)} MB`;
  context.log(
    `parquet sizes: snappy ${megabytes(parquetBytes)}, zstd ${megabytes(zstdParquetBytes)}, gzip ${megabytes(gzipParquetBytes)}, ` +
      `none ${megabytes(plainParquetBytes)}; CSV gzip -1 ${megabytes(gzipCsvBytes)}`,
  );
  return {
    what: `Full-table Parquet download, ${settings.rows.toLocaleString('en')} rows`,
    ourPath: `GET /api/stream/data/{id}?format=parquet with X-API-Key, ${(parquetBytes / 1e6).toFixed(0)} MB read and discarded by the client`,
    baselinePath: `GET /api/stream/data/{id}?format=csv of the same rows, ${(csvBytes / 1e6).toFixed(0)} MB, same run`,
    unit: 's',
    ours,
    baseline,
    ratio,
    target: `≤ ${TARGET_RATIO}× the CSV stream; file ≤ the gzipped CSV stream; flat memory`,
    met: ratio <= TARGET_RATIO && sizeRatio <= 1 && growth.max <= FLAT_GROWTH_MB,
    side: [
      { label: 'API RSS growth', figure: growth, unit: 'MB' },
      { label: 'Parquet file (Snappy)', figure: summarise([parquetBytes / 1e6]), unit: 'MB' },
      { label: 'CSV stream gzipped (level 1)', figure: summarise([gzipCsvBytes / 1e6]), unit: 'MB' },
      { label: 'Parquet with compression=gzip', figure: gzipParquet, unit: 's' },
      { label: 'Parquet with compression=zstd', figure: zstdParquet, unit: 's' },
    ],
    notes: [
      `Size: the Snappy file is ${sizeRatio.toFixed(2)}× the gzipped CSV stream (${megabytes(parquetBytes)} vs ` +
        `${megabytes(gzipCsvBytes)}); with compression=zstd ${megabytes(zstdParquetBytes)} ` +
        `(${(zstdParquetBytes / gzipCsvBytes).toFixed(2)}×), with compression=gzip ${megabytes(gzipParquetBytes)} ` +
        `(${(gzipParquetBytes / gzipCsvBytes).toFixed(2)}×), with compression=none ${megabytes(plainParquetBytes)}. ` +
        `Time: ${ratio.toFixed(2)}× the CSV stream; with compression=zstd ${(zstdParquet.median / baseline.median).toFixed(2)}×, ` +
        `with compression=gzip ${(gzipParquet.median / baseline.median).toFixed(2)}×.`,
      `Typed columns (INT64, DECIMAL, DATE, TIMESTAMP, BOOLEAN, STRING); dictionary pages for repeating values, ` +
        `DELTA_BINARY_PACKED for distinct integers, else PLAIN; Snappy pages, row groups of 65,536 rows; ` +
        `"flat memory": RSS growth at most ${FLAT_GROWTH_MB} MB whatever the table size. ` +
        `The process's first Parquet file (1,000 rows, before the runs) started the encoder thread: RSS +${firstFileMb.toFixed(0)} MB, once.`,
    ],
  };
}
