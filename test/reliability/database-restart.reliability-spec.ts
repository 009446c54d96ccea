import { Client } from 'pg';
import { DataSource } from 'typeorm';
import { createUser, TestUser } from '../factories/user.factory';
import { AppProcess, stopAllApps } from './support/app-process';
import { waitFor } from './support/database';
import { Answer, HttpClient } from './support/http-client';
import { RestartablePostgres } from './support/restartable-postgres';

/** A request must be answered (not hang) while the database is away: the pool gives up after 5 s. */
const DOWN_TIMEOUT_MS = 15_000;

interface Probe {
  name: string;
  /** The status while the database is up. */
  ok: number;
  send(timeoutMs: number): Promise<Answer>;
}

describe('reliability: PostgreSQL restarted while the app runs', () => {
  let postgres: RestartablePostgres;
  let app: AppProcess;
  let dataSource: DataSource | undefined;

  beforeAll(async () => {
    postgres = await RestartablePostgres.start();
    app = await AppProcess.start({
      name: 'database-restart',
      databaseUrl: postgres.url,
      // The scheduler keeps ticking through the outage: its failures must not take the process down.
      env: { SCHEDULER_ENABLED: 'true', SCHEDULER_TICK_SECONDS: '1' },
    });
  });

  afterAll(async () => {
    await stopAllApps();
    if (dataSource?.isInitialized) await dataSource.destroy().catch(() => undefined);
    await postgres?.destroy();
  });

  /** One statement on a connection of its own, closed at once (the server may go away). */
  async function sql(text: string, values: unknown[] = []): Promise<Array<Record<string, unknown>>> {
    const client = new Client({ connectionString: postgres.url });
    client.on('error', () => undefined);
    await client.connect();
    try {
      return (await client.query(text, values)).rows;
    } finally {
      await client.end();
    }
  }

  async function copyInProgress(): Promise<true | undefined> {
    const rows = await sql(
      `SELECT 1 FROM pg_stat_progress_copy p JOIN pg_stat_activity a ON a.pid = p.pid
        WHERE a.application_name = 'dataset-ingest' AND p.tuples_processed > 1000`,
    );
    return rows.length > 0 ? true : undefined;
  }

  async function prepare(): Promise<{ user: TestUser; datasetId: string; apiKey: string }> {
    dataSource = new DataSource({ type: 'postgres', url: postgres.url, extra: { max: 1 } });
    await dataSource.initialize();
    const user = await createUser(dataSource);
    await dataSource.destroy();
    const owner = new HttpClient(app.baseUrl);
    await owner.login(user.email, user.password);
    const { id: datasetId } = await owner.expect<{ id: string }>('POST', '/api/assets/upload-csv', 201, {
      form: csvForm('Before the restart'),
    });
    const { api_key: apiKey } = await owner.expect<{ api_key: string }>('POST', '/api/dev/apikey', 200, {
      json: { email: user.email },
    });
    return { user, datasetId, apiKey };
  }

  /** Rows until `feeding.on` turns false (bounded all the same); then the file part ends. */
  function* csvWhile(feeding: { on: boolean }): Generator<string> {
    yield 'id,label\n';
    for (let start = 0; feeding.on && start < 20_000_000; start += 1000) {
      let chunk = '';
      for (let id = start; id < start + 1000; id++) chunk += `${id},row ${id}\n`;
      yield chunk;
    }
  }

  function csvForm(title: string): FormData {
    const form = new FormData();
    form.append('title', title);
    form.append('file', new Blob(['city,visitors\nParis,10\nLyon,7\n'], { type: 'text/csv' }), 'cities.csv');
    return form;
  }

  it('answers 503 while the database is down and serves again once it is back, without an app restart', async () => {
    const { user, datasetId, apiKey } = await prepare();
    const visitor = new HttpClient(app.baseUrl);
    const member = new HttpClient(app.baseUrl);
    await member.login(user.email, user.password);
    const probes: Probe[] = [
      { name: 'health', ok: 200, send: (timeoutMs) => visitor.send('GET', '/api/health', { timeoutMs }) },
      { name: 'catalogue', ok: 200, send: (timeoutMs) => visitor.send('GET', '/api/assets', { timeoutMs }) },
      {
        name: 'dataset detail',
        ok: 200,
        send: (timeoutMs) => visitor.send('GET', `/api/assets/${datasetId}`, { timeoutMs }),
      },
      { name: 'blog', ok: 200, send: (timeoutMs) => visitor.send('GET', '/api/blog', { timeoutMs }) },
      {
        name: 'own profile',
        ok: 200,
        send: (timeoutMs) => member.send('GET', '/api/users/me', { timeoutMs }),
      },
      {
        name: 'own rows',
        ok: 200,
        send: (timeoutMs) => member.send('GET', `/api/assets/${datasetId}/data`, { timeoutMs }),
      },
      {
        name: 'upload',
        ok: 201,
        send: (timeoutMs) =>
          member.send('POST', '/api/assets/upload-csv', { form: csvForm('During the restart'), timeoutMs }),
      },
      {
        name: 'stream',
        ok: 200,
        send: (timeoutMs) =>
          visitor.send('GET', `/api/stream/data/${datasetId}`, {
            headers: { 'x-api-key': apiKey },
            timeoutMs,
          }),
      },
      {
        name: 'login',
        ok: 200,
        send: (timeoutMs) =>
          new HttpClient(app.baseUrl).send('POST', '/api/users/login', {
            json: { email: user.email, password: user.password },
            timeoutMs,
          }),
      },
    ];
    const statuses = async (timeoutMs: number) =>
      Object.fromEntries(
        await Promise.all(
          probes.map(async (probe) => {
            const answer = await probe.send(timeoutMs);
            const body = answer.body as { statusCode?: number } | string;
            // The API's own error shape, not a proxy's or the framework's default page.
            const shaped = typeof body === 'object' && body.statusCode === answer.status;
            return [
              probe.name,
              answer.status >= 400 && !shaped ? `${answer.status} (unshaped)` : answer.status,
            ];
          }),
        ),
      );
    const expected = (pick: (probe: Probe) => number) =>
      Object.fromEntries(probes.map((probe) => [probe.name, pick(probe)]));
    const pid = app.pid;

    expect(await statuses(DOWN_TIMEOUT_MS)).toEqual(expected((probe) => probe.ok));

    // An upload is streaming into COPY when the server goes away; the client then sends the rest.
    const inFlightTitle = 'Cut off by the restart';
    const feeding = { on: true };
    const upload = member.streamCsvUpload({ title: inFlightTitle }, csvWhile(feeding));
    let cutOff: { status?: number; error?: string };
    try {
      await waitFor('the upload to reach COPY', () => copyInProgress(), 30_000, 50);
      await postgres.stop();
      feeding.on = false;
      let timer: NodeJS.Timeout | undefined;
      cutOff = await Promise.race([
        upload.done,
        new Promise<{ error: string }>((done) => {
          timer = setTimeout(() => done({ error: 'no answer' }), DOWN_TIMEOUT_MS);
        }),
      ]);
      clearTimeout(timer);
    } finally {
      upload.stop();
    }
    expect(cutOff).toEqual({ status: 503 });
    // Twice: right after the connections were cut, and once the pool has nothing left to reuse.
    expect(await statuses(DOWN_TIMEOUT_MS)).toEqual(expected(() => 503));
    await new Promise((resolve) => setTimeout(resolve, 2000));
    expect(await statuses(DOWN_TIMEOUT_MS)).toEqual(expected(() => 503));
    expect(app.isRunning).toBe(true);

    await postgres.restart();
    await waitFor(
      'the app to reach the database again',
      async () => ((await visitor.send('GET', '/api/health')).status === 200 ? true : undefined),
      30_000,
    );
    expect(await statuses(DOWN_TIMEOUT_MS)).toEqual(expected((probe) => probe.ok));
    // The upload cut off by the outage left nothing behind.
    expect(await sql(`SELECT id FROM assets WHERE title = $1`, [inFlightTitle])).toEqual([]);
    const strayTables = await sql(
      `SELECT table_name FROM information_schema.tables WHERE table_schema = 'data'
          AND table_name NOT IN (SELECT table_name FROM assets)`,
    );
    expect(strayTables).toEqual([]);
    // The same process all along, and the session from before the outage still holds.
    expect(app.pid).toBe(pid);
    expect((await member.send('GET', '/api/users/me')).status).toBe(200);
  });
});
