import { Agent, request } from 'node:http';
import { from as copyFrom } from 'pg-copy-streams';
import { withClient } from '../database';

const TABLE = 'bench_hand_pipeline';

/** One value in COPY text format. */
function copyValue(value: unknown): string {
  if (value === null || value === undefined) return '\\N';
  const text = typeof value === 'object' ? JSON.stringify(value) : String(value);
  return text.replace(/[\\\t\n\r]/g, (char) =>
    char === '\\' ? '\\\\' : char === '\t' ? '\\t' : char === '\n' ? '\\n' : '\\r',
  );
}

function fetchPage(agent: Agent, url: string): Promise<Buffer> {
  return new Promise<Buffer>((resolve, reject) => {
    request(url, { agent }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.once('end', () => resolve(Buffer.concat(chunks)));
      response.once('error', reject);
    })
      .once('error', reject)
      .end();
  });
}

/**
 * The shortest honest pipeline written by hand: fetch each page in turn over one keep-alive
 * connection, JSON.parse it, and COPY its records into a regular table with the same column
 * types as ours, in one transaction. Answers the rows stored. The table is dropped afterwards.
 */
export async function handWrittenPipeline(
  databaseUrl: string,
  origin: string,
  pages: number,
  pageSize: number,
): Promise<number> {
  return withClient(databaseUrl, async (client) => {
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    let rows = 0;
    try {
      await client.query(`DROP TABLE IF EXISTS ${TABLE}`);
      await client.query('BEGIN');
      await client.query(
        `CREATE TABLE ${TABLE} (id bigint, name text, email text, amount numeric, quantity bigint, active boolean,
           status text, created_at timestamptz, address jsonb, tags jsonb)`,
      );
      const columns = [
        'id',
        'name',
        'email',
        'amount',
        'quantity',
        'active',
        'status',
        'created_at',
        'address',
        'tags',
      ];
      const copy = client.query(copyFrom(`COPY ${TABLE} (${columns.join(', ')}) FROM STDIN`));
      const finished = new Promise<void>((resolve, reject) => {
        copy.once('finish', resolve);
        copy.once('error', reject);
      });
      for (let page = 1; page <= pages; page++) {
        const body = await fetchPage(agent, `${origin}/records?page=${page}&per_page=${pageSize}`);
        const records = (JSON.parse(body.toString('utf8')) as { data: Array<Record<string, unknown>> }).data;
        const lines = records.map((record) => columns.map((column) => copyValue(record[column])).join('\t'));
        rows += records.length;
        if (!copy.write(`${lines.join('\n')}\n`)) await new Promise((resolve) => copy.once('drain', resolve));
      }
      copy.end();
      await finished;
      await client.query('COMMIT');
    } finally {
      agent.destroy();
      await client.query('ROLLBACK').catch(() => undefined);
      await client.query(`DROP TABLE IF EXISTS ${TABLE}`);
    }
    return rows;
  });
}
