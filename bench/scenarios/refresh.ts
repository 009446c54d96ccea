import { BENCH_COLUMNS } from '../generate-csv';
import { BenchContext, inTurn } from '../context';
import { quietStart, timePsql, withClient } from '../database';
import { summarise } from '../measure';
import type { BenchRow } from '../report';

/** Pause between two of the reader's requests: about 45 reads a second, like a busy grid. */
const READ_PAUSE_MS = 20;

/**
 * Replacing every row of a dataset: POST /api/assets/{id}/refresh (mode replace) with the same
 * file, against psql \copy of it into a fresh table. During both, a reader asks the API for the
 * dataset's first row and its total every READ_PAUSE_MS: it must never fail, and never see a
 * total other than the old or the new one. Its requests take CPU from whatever loads beside
 * them, so both sides load with it.
 */
export async function benchRefresh(context: BenchContext, assetId: string): Promise<BenchRow> {
  const { settings, databaseUrl, user, csv } = context;
  const columns = BENCH_COLUMNS.map(([name, type]) => `${name} ${type}`).join(', ');
  const escapedPath = csv.path.replace(/'/g, "''");
  const oursSeconds: number[] = [];
  const baselineSeconds: number[] = [];
  let reads = 0;
  let readsDuringReplace = 0;
  let failedReads = 0;
  let oddTotals = 0;

  /** Times `load` while the reader runs; answers its seconds and the reads made meanwhile. */
  const timedWithReader = async (load: () => Promise<void>): Promise<{ seconds: number; reads: number }> => {
    let reading = true;
    let made = 0;
    const reader = (async () => {
      while (reading) {
        try {
          const page = await user.client.json<{ total: number }>(
            'GET',
            `/api/assets/${assetId}/data?limit=1`,
            200,
          );
          made += 1;
          if (page.total !== settings.rows) oddTotals += 1;
        } catch {
          failedReads += 1;
        }
        await new Promise((resolve) => setTimeout(resolve, READ_PAUSE_MS));
      }
    })();
    const started = process.hrtime.bigint();
    let seconds: number;
    try {
      await load();
      seconds = Number(process.hrtime.bigint() - started) / 1e9;
    } finally {
      // The read in flight when the load ends is not part of the load's time.
      reading = false;
      await reader;
    }
    reads += made;
    return { seconds, reads: made };
  };

  const ours = async () => {
    await quietStart(databaseUrl);
    let answer: Awaited<ReturnType<typeof user.client.uploadFile>> | undefined;
    const { seconds, reads: made } = await timedWithReader(async () => {
      answer = await user.client.uploadFile(
        `/api/assets/${assetId}/refresh`,
        { mode: 'replace' },
        { field: 'file', name: 'orders.csv', path: csv.path },
      );
    });
    oursSeconds.push(seconds);
    readsDuringReplace += made;
    if (answer?.status !== 200) {
      throw new Error(`Refresh answered ${answer?.status}: ${answer?.body.toString().slice(0, 300)}`);
    }
  };
  const baseline = async (run: number) => {
    const table = `bench_refresh_${run}`;
    await withClient(databaseUrl, (client) => client.query(`CREATE TABLE ${table} (${columns})`));
    await quietStart(databaseUrl);
    const { seconds } = await timedWithReader(async () => {
      await timePsql(databaseUrl, `\\copy ${table} FROM '${escapedPath}' WITH (FORMAT csv, HEADER true)`);
    });
    baselineSeconds.push(seconds);
    await withClient(databaseUrl, (client) => client.query(`DROP TABLE ${table}`));
  };

  for (let run = 0; run < settings.runs; run++) {
    await inTurn(run, ours, () => baseline(run));
    context.log(
      `refresh run ${run + 1}: API ${oursSeconds[run].toFixed(2)} s, psql \\copy ${baselineSeconds[run].toFixed(2)} s`,
    );
  }
  const oursFigure = summarise(oursSeconds);
  const baselineFigure = summarise(baselineSeconds);
  const ratio = oursFigure.median / baselineFigure.median;
  return {
    what: `Replacing a dataset's ${settings.rows.toLocaleString('en')} rows`,
    ourPath: 'POST /api/assets/{id}/refresh (mode replace, multipart, streamed from disk) until it answers',
    baselinePath: 'psql \\copy of the same file into a fresh table with the same column types',
    unit: 's',
    ours: oursFigure,
    baseline: baselineFigure,
    ratio,
    target: '≤ 1.3×; the old rows readable throughout',
    met: ratio <= 1.3 && failedReads === 0 && oddTotals === 0,
    side: [],
    notes: [
      `A reader asked the API for the first row ${reads} times during the loads of both sides (${readsDuringReplace} during the replacements): ${failedReads} failed, ${oddTotals} saw a total other than ${settings.rows}.`,
      'The replacement is staged in a table of its own and swapped in with the catalogue row in one commit; the column profile is computed right after the commit, outside the timed answer, and each timed load (either side) starts once the previous profile has finished.',
    ],
  };
}
