import { dirname, join } from 'node:path';
import { BENCH_COLUMNS } from '../generate-csv';
import { generateDialectCsv } from '../generate-dialect-csv';
import { BenchContext, inTurn } from '../context';
import { quietStart, timePsql, withClient } from '../database';
import { summarise } from '../measure';
import type { BenchRow } from '../report';

/**
 * CSV ingest of a semicolon, decimal-comma, day-first file (its values rewritten on the way in)
 * against psql \\copy of the same data in canonical form into a table of the same column types.
 */
export async function benchDialectIngest(context: BenchContext): Promise<BenchRow> {
  const { settings, databaseUrl, user, csv } = context;
  const dialectCsv = await generateDialectCsv(
    csv.path,
    join(dirname(csv.path), `orders-v2-${settings.rows}-rows-semicolon.csv.tmp`),
  );
  const oursSeconds: number[] = [];
  const baselineSeconds: number[] = [];
  const columns = BENCH_COLUMNS.map(([name, type]) => `${name} ${type}`).join(', ');
  const escapedPath = csv.path.replace(/'/g, "''");

  const ours = async (run: number) => {
    await quietStart(databaseUrl);
    const started = process.hrtime.bigint();
    const answer = await user.client.uploadFile(
      '/api/assets/upload-csv',
      {
        title: `Benchmark semicolon orders ${run + 1}`,
        category: 'Benchmark',
        delimiter: ';',
        decimal_mark: ',',
        date_order: 'dmy',
      },
      { field: 'file', name: 'orders.csv', path: dialectCsv.path },
    );
    if (answer.status !== 201) {
      throw new Error(`Upload answered ${answer.status}: ${answer.body.toString().slice(0, 300)}`);
    }
    const { id } = JSON.parse(answer.body.toString()) as { id: string };
    await user.client.json('GET', `/api/assets/${id}`, 200);
    oursSeconds.push(Number(process.hrtime.bigint() - started) / 1e9);
    await withClient(databaseUrl, async (client) => {
      const { rows } = await client.query(`DELETE FROM assets WHERE id = $1 RETURNING table_name`, [id]);
      if (rows[0]) await client.query(`DROP TABLE IF EXISTS data."${rows[0].table_name}"`);
    });
  };
  const baseline = async (run: number) => {
    const table = `bench_dialect_copy_${run}`;
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
      `semicolon ingest run ${run + 1}: API ${oursSeconds[run].toFixed(2)} s, ` +
        `psql \\copy of the canonical file ${baselineSeconds[run].toFixed(2)} s`,
    );
  }
  const oursFigure = summarise(oursSeconds);
  const baselineFigure = summarise(baselineSeconds);
  const ratio = oursFigure.median / baselineFigure.median;
  return {
    what: `CSV ingest, semicolon / decimal comma / day-first dates, ${settings.rows.toLocaleString('en')} rows`,
    ourPath:
      'POST /api/assets/upload-csv with delimiter=; decimal_mark=, date_order=dmy until GET /api/assets/{id} answers',
    baselinePath: 'psql \\copy of the same data in canonical form (comma, dot decimals, ISO dates)',
    unit: 's',
    ours: oursFigure,
    baseline: baselineFigure,
    ratio,
    target: '≤ 1.5×',
    met: ratio <= 1.5,
    side: [],
    notes: [
      `Numbers and dates are rewritten in a byte pass before the scanner and COPY; ${(dialectCsv.bytes / 1e6).toFixed(0)} MB file.`,
    ],
  };
}
