import { once } from 'node:events';
import { createServer, Server } from 'node:http';
import { Client } from 'pg';
import type { BenchContext } from '../context';
import { summarise } from '../measure';
import type { BenchRow } from '../report';

const LOADED = 100_000;
const CHANGED = 500;
const ADDED = 500;
const PAGE_SIZE = 5_000;
const BASE = Date.UTC(2024, 0, 1);

interface Upstream {
  server: Server;
  origin: string;
  /** Moves CHANGED records forward in time and adds ADDED new ones. */
  change(): void;
}

/** An API with `updated_since` and page pagination, sorted by updated_at like a real one. */
async function startIncrementalApi(): Promise<Upstream> {
  let records = Array.from({ length: LOADED }, (_, index) => ({
    id: index + 1,
    name: `Customer ${index + 1}`,
    amount: ((index * 7919) % 100_000) / 100,
    updated_at: BASE + index * 1000,
  }));
  const server = createServer((incoming, response) => {
    const url = new URL(incoming.url ?? '/', 'http://localhost');
    const since = Date.parse(url.searchParams.get('updated_since') ?? '1970-01-01T00:00:00Z');
    const page = Number(url.searchParams.get('page') ?? 1);
    const changed = records.filter((record) => record.updated_at > since);
    const data = changed.slice((page - 1) * PAGE_SIZE, page * PAGE_SIZE).map((record) => ({
      ...record,
      updated_at: new Date(record.updated_at).toISOString(),
    }));
    response.setHeader('content-type', 'application/json');
    response.end(JSON.stringify({ data }));
  });
  server.keepAliveTimeout = 65_000;
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as { port: number };
  return {
    server,
    origin: `http://127.0.0.1:${port}`,
    change: () => {
      const later = BASE + LOADED * 1000 + 60_000;
      records = records.map((record) =>
        record.id % (LOADED / CHANGED) === 0
          ? { ...record, name: `${record.name} (changed)`, updated_at: later + record.id }
          : record,
      );
      for (let index = 0; index < ADDED; index++) {
        records.push({
          id: LOADED + index + 1,
          name: `New ${index}`,
          amount: index,
          updated_at: later + LOADED + index,
        });
      }
    },
  };
}

async function tableRows(
  databaseUrl: string,
  instanceId: string,
): Promise<{ rows: number; distinct: number }> {
  const client = new Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query(`SELECT output_table_name FROM connector_instances WHERE id = $1`, [
      instanceId,
    ]);
    const table = rows[0].output_table_name as string;
    const counted = await client.query(
      `SELECT count(*)::int AS rows, count(DISTINCT id)::int AS distinct FROM data."${table}"`,
    );
    return counted.rows[0] as { rows: number; distinct: number };
  } finally {
    await client.end();
  }
}

async function followRun(context: BenchContext, instanceId: string, runId: string): Promise<number> {
  for (;;) {
    const runs = await context.user.client.json<
      Array<{ id: string; status: string; row_count: number; error: string | null }>
    >('GET', `/api/connectors/instance/${instanceId}/runs`, 200);
    const run = runs.find((candidate) => candidate.id === runId);
    if (run?.status === 'succeeded') return run.row_count;
    if (!run || run.status === 'failed') throw new Error(`The run failed: ${run?.error ?? 'not found'}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/**
 * Incremental sync: 100,000 records loaded by a first full run, then 1,000 new or changed
 * upstream; the second run (cursor sent as updated_since, upsert on id) against the first run's
 * time, in the same repetition. The table must hold exactly 100,500 distinct rows afterwards.
 */
export async function benchIncremental(context: BenchContext): Promise<BenchRow> {
  const { settings, user } = context;
  const firstSeconds: number[] = [];
  const secondSeconds: number[] = [];
  for (let run = 0; run < settings.runs; run++) {
    const upstream = await startIncrementalApi();
    try {
      const spec = {
        base_url: upstream.origin,
        operations: [
          {
            id: 'customers',
            url_path: '/customers',
            response_path: 'data',
            pagination: { type: 'page', page_param: 'page', start_page: 1, page_size: PAGE_SIZE },
            primary_key: ['id'],
            incremental: { cursor_field: 'updated_at', param: 'updated_since', start: '2000-01-01' },
          },
        ],
      };
      const connector = await user.client.json<{ id: string }>('POST', '/api/connectors/upload', 201, {
        json: { title: `Incremental benchmark ${run}`, spec },
      });
      const instance = await user.client.json<{ id: string }>('POST', '/api/connectors/activate', 201, {
        json: { connector_id: connector.id },
      });
      const timed = async (expected: number) => {
        const started = process.hrtime.bigint();
        const answer = await user.client.send('POST', `/api/connectors/run/${instance.id}`);
        const body = JSON.parse(answer.body.toString()) as { rowCount?: number; run_id?: string };
        let rowCount: number;
        if (answer.status === 200) rowCount = body.rowCount ?? -1;
        // The run outlasted the server's wait: followed in the run history, 50 ms at a time.
        else if (answer.status === 202) rowCount = await followRun(context, instance.id, body.run_id ?? '');
        else throw new Error(`The run answered ${answer.status}: ${answer.body.toString().slice(0, 300)}`);
        if (rowCount !== expected) throw new Error(`The run read ${rowCount} rows, not ${expected}`);
        return Number(process.hrtime.bigint() - started) / 1e9;
      };
      firstSeconds.push(await timed(LOADED));
      upstream.change();
      secondSeconds.push(await timed(CHANGED + ADDED));
      const stored = await tableRows(context.databaseUrl, instance.id);
      if (stored.rows !== LOADED + ADDED || stored.distinct !== LOADED + ADDED) {
        throw new Error(
          `The table holds ${stored.rows} rows (${stored.distinct} distinct), not ${LOADED + ADDED}`,
        );
      }
      context.log(
        `incremental run ${run + 1}: full ${firstSeconds[run].toFixed(2)} s, ` +
          `incremental ${secondSeconds[run].toFixed(2)} s, ${stored.rows} rows stored`,
      );
    } finally {
      upstream.server.closeAllConnections();
      upstream.server.close();
    }
  }
  const ours = summarise(secondSeconds);
  const baseline = summarise(firstSeconds);
  const ratio = ours.median / baseline.median;
  return {
    what: `Incremental connector run, ${(CHANGED + ADDED).toLocaleString('en')} new or changed of ${LOADED.toLocaleString('en')} records`,
    ourPath:
      'the second POST /api/connectors/run/{id}: updated_since from the saved cursor, upsert on the primary key',
    baselinePath: `the first, full run of the same instance (${LOADED.toLocaleString('en')} records, ${LOADED / PAGE_SIZE} pages)`,
    unit: 's',
    ours,
    baseline,
    ratio,
    target: '≤ 0.1× the full run, row count exact',
    met: ratio <= 0.1,
    side: [],
    notes: [
      `After the second run the table held exactly ${(LOADED + ADDED).toLocaleString('en')} distinct ids: ` +
        `${CHANGED} changed records replaced in place, ${ADDED} added.`,
    ],
  };
}
