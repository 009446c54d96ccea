import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { Client } from 'pg';

/** Runs psql on `url` with one command; answers its wall-clock seconds (process start included). */
export async function timePsql(url: string, command: string): Promise<number> {
  const started = process.hrtime.bigint();
  const child = spawn('psql', ['-X', '-q', '-v', 'ON_ERROR_STOP=1', '-d', url, '-c', command], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let errorText = '';
  child.stderr.on('data', (chunk: Buffer) => (errorText += chunk.toString()));
  const [code] = (await once(child, 'exit')) as [number | null];
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  if (code !== 0) throw new Error(`psql failed (${code}): ${errorText.trim()}\n${command.slice(0, 300)}`);
  return seconds;
}

/**
 * Runs psql's `command` with its output piped through `gzip -<level>` (output discarded); answers
 * the wall-clock seconds of the whole pipeline, process starts included, as timePsql does.
 */
export async function timePsqlGzip(url: string, command: string, level: number): Promise<number> {
  const started = process.hrtime.bigint();
  const child = spawn(
    'bash',
    [
      '-o',
      'pipefail',
      '-c',
      `psql -X -q -v ON_ERROR_STOP=1 -d "$1" -c "$2" | gzip -${level} > /dev/null`,
      'bash',
      url,
      command,
    ],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  let errorText = '';
  child.stderr.on('data', (chunk: Buffer) => (errorText += chunk.toString()));
  const [code] = (await once(child, 'exit')) as [number | null];
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  if (code !== 0)
    throw new Error(`psql | gzip failed (${code}): ${errorText.trim()}\n${command.slice(0, 300)}`);
  return seconds;
}

export async function psqlAvailable(): Promise<boolean> {
  const child = spawn('psql', ['--version'], { stdio: 'ignore' });
  return new Promise((resolve) => {
    child.once('error', () => resolve(false));
    child.once('exit', (code) => resolve(code === 0));
  });
}

/** A short-lived direct connection for set-up SQL. */
export async function withClient<T>(url: string, work: (client: Client) => Promise<T>): Promise<T> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/**
 * A fresh start for each timed load: the previous load's background column profile has finished
 * (its scans would otherwise take CPU from whichever side runs next), then a CHECKPOINT, so no
 * dirty pages of the previous load are flushed during this one.
 */
export async function quietStart(url: string): Promise<void> {
  await withClient(url, async (client) => {
    const deadline = Date.now() + 5 * 60_000;
    for (;;) {
      const { rows } = await client.query<{ running: number }>(
        `SELECT count(*)::int AS running FROM pg_stat_activity
          WHERE application_name = 'dataset-profile' AND datname = current_database()`,
      );
      if (rows[0].running === 0 || Date.now() > deadline) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    await client.query('CHECKPOINT');
  });
}

/**
 * Runs `command` `times` times in one psql session with \timing, output discarded; answers each
 * run's milliseconds as psql reports them (connection and process start-up excluded).
 */
export async function psqlTimings(url: string, command: string, times: number): Promise<number[]> {
  const script = ['\\timing on', '\\o /dev/null', ...Array.from({ length: times }, () => `${command};`)].join(
    '\n',
  );
  const child = spawn('psql', ['-X', '-q', '-v', 'ON_ERROR_STOP=1', '-d', url], {
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let output = '';
  let errorText = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (errorText += chunk.toString()));
  child.stdin.end(`${script}\n`);
  const [code] = (await once(child, 'exit')) as [number | null];
  if (code !== 0) throw new Error(`psql failed (${code}): ${errorText.trim()}`);
  return [...output.matchAll(/^Time: ([\d.]+) ms/gm)].map((match) => Number(match[1]));
}

/** Runs psql's `command` once and answers how many bytes it wrote to standard output. */
export async function psqlOutputBytes(url: string, command: string): Promise<number> {
  const child = spawn('psql', ['-X', '-q', '-v', 'ON_ERROR_STOP=1', '-d', url, '-c', command], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let bytes = 0;
  let errorText = '';
  child.stdout.on('data', (chunk: Buffer) => (bytes += chunk.length));
  child.stderr.on('data', (chunk: Buffer) => (errorText += chunk.toString()));
  const [code] = (await once(child, 'exit')) as [number | null];
  if (code !== 0) throw new Error(`psql failed (${code}): ${errorText.trim()}\n${command.slice(0, 300)}`);
  return bytes;
}
