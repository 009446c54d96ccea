import type { AddressInfo } from 'node:net';
import { Logger } from '@nestjs/common';
import { Client } from 'pg';
import { runMigrations } from '../../src/database/migrate';
import { createUser } from '../factories/user.factory';
import { ReplicatedPostgres } from '../support/replicated-postgres';
import { createTestAppOn, TEST_ORIGIN, TestApp } from '../support/test-app';
import { replicaScans } from './support/replica-watch';

const DATABASE = 'dm_rel_read_positions';
/** Longest a poll waits for the replica to catch up or a process to change its mind. */
const BOUND_MS = 60_000;
/** Reads alternated between the two processes while the replica stands still. */
const ALTERNATIONS = 12;

async function eventually<T>(what: string, probe: () => Promise<T | undefined>): Promise<T> {
  const deadline = Date.now() + BOUND_MS;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`${what} did not happen in time`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** One browser: keeps its cookies whichever web process answers, as behind a load balancer. */
class Browser {
  private readonly cookies = new Map<string, string>();

  async send(base: string, path: string, init: RequestInit = {}): Promise<Response> {
    const headers = new Headers(init.headers);
    headers.set('Origin', TEST_ORIGIN);
    if (this.cookies.size)
      headers.set('Cookie', [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; '));
    const response = await fetch(`${base}${path}`, { ...init, headers });
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const separator = pair.indexOf('=');
      const name = pair.slice(0, separator).trim();
      const value = pair.slice(separator + 1);
      if (value === '' || /max-age=0/i.test(line)) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    return response;
  }

  async json<T>(base: string, path: string, init: RequestInit = {}): Promise<T> {
    const response = await this.send(base, path, init);
    const body = await response.json();
    if (!response.ok)
      throw new Error(`${init.method ?? 'GET'} ${path}: ${response.status} ${JSON.stringify(body)}`);
    return body as T;
  }
}

describe('reliability: two web processes on one primary and one replica', () => {
  let cluster: ReplicatedPostgres;
  let replicaUrl: string;
  let replicaControl: Client;
  const processes: Array<{ app: TestApp; base: string }> = [];

  /** One web process on the shared primary and replica, listening on loopback. */
  async function startWebProcess(maxLagMs: string): Promise<{ app: TestApp; base: string }> {
    const app = await createTestAppOn(cluster.urlOf(cluster.primaryPort, DATABASE), {
      DATABASE_READ_URL: replicaUrl,
      DATABASE_READ_MAX_LAG_MS: maxLagMs,
    });
    await app.app.listen(0, '127.0.0.1');
    const { port } = app.app.getHttpServer().address() as AddressInfo;
    const started = { app, base: `http://127.0.0.1:${port}/api` };
    processes.push(started);
    return started;
  }

  beforeAll(async () => {
    cluster = await ReplicatedPostgres.start();
    const admin = new Client({ connectionString: cluster.primaryUrl });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${DATABASE}`);
    await admin.end();
    await runMigrations(cluster.urlOf(cluster.primaryPort, DATABASE));
    replicaUrl = cluster.urlOf(cluster.replicaPort, DATABASE);
    replicaControl = await eventually('the database reaching the replica', async () => {
      const client = new Client({ connectionString: replicaUrl });
      return client.connect().then(
        () => client,
        () => undefined,
      );
    });
  });

  afterAll(async () => {
    await replicaControl?.query('SELECT pg_wal_replay_resume()').catch(() => undefined);
    await replicaControl?.end().catch(() => undefined);
    for (const { app } of processes) await app.close();
    await cluster?.destroy();
  });

  afterEach(async () => {
    await replicaControl.query('SELECT pg_wal_replay_resume()');
  });

  async function signedInBrowser(base: string): Promise<Browser> {
    const user = await createUser(processes[0].app.dataSource);
    const browser = new Browser();
    await browser.json(base, '/users/login', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ email: user.email, password: user.password }),
    });
    return browser;
  }

  async function upload(browser: Browser, base: string, title: string): Promise<string> {
    const form = new FormData();
    form.set('title', title);
    form.set('file', new Blob(['name,amount\nalpha,1\nbeta,2\n']), 'data.csv');
    return (await browser.json<{ id: string }>(base, '/assets/upload-csv', { method: 'POST', body: form }))
      .id;
  }

  /** The dataset's title as the catalogue (a read the replica may serve) shows it to the browser. */
  async function titleSeen(browser: Browser, base: string, id: string): Promise<string | undefined> {
    const listed = await browser.json<Array<{ id: string; title: string }>>(base, '/assets?scope=all');
    return listed.find((item) => item.id === id)?.title;
  }

  /** Waits until the replica shows the dataset under `title` (read straight from the replica). */
  async function onReplica(id: string, title: string): Promise<void> {
    await eventually(`"${title}" on the replica`, async () => {
      const { rows } = await replicaControl.query('SELECT title FROM assets WHERE id = $1', [id]);
      return rows[0]?.title === title ? true : undefined;
    });
  }

  it('a user who changed a title sees it through either process while the replica stands still, then reads from the replica again', async () => {
    const [first, second] = [await startWebProcess('600000'), await startWebProcess('600000')];
    const owner = await signedInBrowser(first.base);
    const id = await upload(owner, first.base, 'Harbour tides');
    await onReplica(id, 'Harbour tides');

    await replicaControl.query('SELECT pg_wal_replay_pause()');
    const warn = jest.spyOn(Logger.prototype, 'warn');
    const patched = await owner.json<{ title: string }>(first.base, `/assets/${id}`, {
      method: 'PATCH',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ title: 'Harbour tides 2026' }),
    });
    expect(patched.title).toBe('Harbour tides 2026');
    const seen: Array<string | undefined> = [];
    for (let index = 0; index < ALTERNATIONS; index++)
      seen.push(await titleSeen(owner, (index % 2 ? second : first).base, id));
    expect(seen).toEqual(Array(ALTERNATIONS).fill('Harbour tides 2026'));
    // Within its lag bound the replica is not "down": one caller's reads on the primary say nothing of it.
    expect(warn.mock.calls.filter(([message]) => String(message).startsWith('Read replica down'))).toEqual(
      [],
    );
    warn.mockRestore();
    // The replica did stand still: a visitor with nothing seen yet still gets its old title.
    expect(await titleSeen(new Browser(), second.base, id)).toBe('Harbour tides');

    await replicaControl.query('SELECT pg_wal_replay_resume()');
    await onReplica(id, 'Harbour tides 2026');
    const scansBefore = await replicaScans(replicaUrl, 'assets');
    await eventually('the owner reading from the replica again', async () => {
      for (const { base } of [first, second])
        expect(await titleSeen(owner, base, id)).toBe('Harbour tides 2026');
      return (await replicaScans(replicaUrl, 'assets')) > scansBefore ? true : undefined;
    });
  });

  it('a visitor who saw a new title from the primary never sees the old one again through another process', async () => {
    // Deciding on its own probe, one process finds the stopped replica too far behind, the other not.
    const [strict, patient] = [await startWebProcess('1000'), await startWebProcess('600000')];
    const owner = await signedInBrowser(strict.base);
    const id = await upload(owner, strict.base, 'Glacier melt');
    await onReplica(id, 'Glacier melt');

    await replicaControl.query('SELECT pg_wal_replay_pause()');
    await owner.json(strict.base, `/assets/${id}`, {
      method: 'PATCH',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ title: 'Glacier melt 2026' }),
    });
    const visitor = new Browser();
    await eventually('the strict process reading from the primary', async () =>
      (await titleSeen(visitor, strict.base, id)) === 'Glacier melt 2026' ? true : undefined,
    );
    const seen: Array<string | undefined> = [];
    for (let index = 0; index < ALTERNATIONS; index++)
      seen.push(await titleSeen(visitor, (index % 2 ? patient : strict).base, id));
    expect(seen).toEqual(Array(ALTERNATIONS).fill('Glacier melt 2026'));
    expect(await titleSeen(new Browser(), patient.base, id)).toBe('Glacier melt');
  });
});
