import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Client } from 'pg';
import { SEED_POSTS } from '../../src/blog/seed/blog-seed-posts';
import { SEED_CONNECTORS } from '../../src/connectors/seed/seed-connectors';
import { SEED_DATASETS } from '../../src/database/seed/datasets.seeder';
import { AppProcess } from './support/app-process';
import { createReliabilityDatabase, ReliabilityDatabase, waitFor } from './support/database';

const VERSION = (
  JSON.parse(readFileSync(resolve(__dirname, '..', '..', 'package.json'), 'utf8')) as { version: string }
).version;
/** At the default level: version, database, migrations, seeded content, demo login, URL, and a little room. */
const MOST_START_LINES = 8;
const SEEDED = `${SEED_DATASETS.length} datasets, ${SEED_CONNECTORS.length} connectors, ${SEED_POSTS.length} blog posts`;
/** The default log level, without colours so lines compare as text. */
const DEFAULT_LOGGING = { LOG_LEVEL: undefined, NO_COLOR: '1' };

/** The lines of the latest start, up to and including the one naming the URL to open. */
async function startLines(app: AppProcess, from = 0): Promise<string[]> {
  const end = await waitFor(
    'the line naming the URL to open',
    async () => {
      const index = app.output.findIndex((line, position) => position >= from && line.includes('Open http'));
      return index >= 0 ? index : undefined;
    },
    10_000,
  );
  return app.output.slice(from, end + 1);
}

function lineWith(lines: string[], text: string | RegExp): string {
  const line = lines.find((candidate) =>
    typeof text === 'string' ? candidate.includes(text) : text.test(candidate),
  );
  if (!line) throw new Error(`No start line with ${String(text)} in:\n${lines.join('\n')}`);
  return line;
}

async function majorVersion(connection: {
  url?: string;
  host?: string;
  port?: number;
  database?: string;
  user?: string;
  password?: string;
}) {
  const client = new Client(connection.url ? { connectionString: connection.url } : connection);
  await client.connect();
  try {
    const { rows } = await client.query<{ server_version_num: string }>('SHOW server_version_num');
    return Math.floor(Number(rows[0].server_version_num) / 10_000);
  } finally {
    await client.end();
  }
}

describe('reliability: what a start prints at the default log level', () => {
  let database: ReliabilityDatabase;
  let app: AppProcess | undefined;
  let embedded: AppProcess | undefined;
  const webRoot = mkdtempSync(join(tmpdir(), 'dm-start-log-web-'));

  beforeAll(async () => {
    database = await createReliabilityDatabase('dm_start_log');
    mkdirSync(join(webRoot, 'assets'));
    writeFileSync(join(webRoot, 'index.html'), '<!doctype html><title>app</title>');
    writeFileSync(join(webRoot, 'assets', 'app-0123abcd.js'), 'export {};');
  });
  afterAll(async () => {
    await app?.stop();
    await embedded?.stop();
    await database?.drop();
    rmSync(webRoot, { recursive: true, force: true });
  });

  // A password in the URL must never reach the log; the machine's server may trust any.
  function urlWithPassword(): URL {
    const url = new URL(database.url);
    if (!url.password) url.password = 'never-printed-7f3a9c';
    return url;
  }

  it('prints a handful of lines: version, server and major version, migrations, seeded content, demo login, URL', async () => {
    const url = urlWithPassword();
    app = await AppProcess.start({
      name: 'start-log',
      databaseUrl: url.toString(),
      env: { ...DEFAULT_LOGGING, SEED: 'true', WEB_ROOT: webRoot },
    });
    const lines = await startLines(app);

    expect(lines.length).toBeLessThanOrEqual(MOST_START_LINES);
    expect(lineWith(lines, `Data Marketplace ${VERSION}`)).toBeTruthy();
    const major = await majorVersion({ url: database.url });
    expect(lineWith(lines, 'Database:')).toContain(
      `PostgreSQL ${major} at ${decodeURIComponent(url.username)}@${url.hostname}:${url.port || 5432}${url.pathname}`,
    );
    expect(lineWith(lines, /Migrations: applied \d+$/)).toBeTruthy();
    expect(lineWith(lines, 'Seeded demo content:')).toContain(`Seeded demo content: ${SEEDED}`);
    expect(lineWith(lines, 'Demo login')).toContain('demo@example.com / demo-password-2026');
    expect(lineWith(lines, 'Open http')).toContain(`Open ${app.baseUrl}`);
    expect(app.output.join('\n')).not.toContain(decodeURIComponent(url.password));
  });

  it('adds no line for a file of the app or an anonymous users/me, and one for an API call', async () => {
    // The start's own health probe writes its line; wait for it before counting.
    await waitFor(
      'the health probe line',
      async () => app!.output.some((line) => line.includes('/api/health')) || undefined,
      5_000,
    );
    const before = app!.output.length;

    const file = await fetch(`${app!.baseUrl}/assets/app-0123abcd.js`);
    expect(file.status).toBe(200);
    expect((await fetch(`${app!.baseUrl}/api/users/me`)).status).toBe(401);
    // A logged request after them: once its line is out, theirs would have been too.
    expect((await fetch(`${app!.baseUrl}/api/health?after=quiet-requests`)).status).toBe(200);
    await waitFor(
      'the line of the logged request',
      async () => app!.output.some((line) => line.includes('after=quiet-requests')) || undefined,
      5_000,
    );

    const added = app!.output.slice(before).filter((line) => line.trim() !== '');
    expect(added).toHaveLength(1);
    expect(added[0]).toContain('/api/health?after=quiet-requests');
  });

  it('says on the next start that nothing was pending and the demo content was already there', async () => {
    await app!.kill();
    const from = app!.output.length;
    await app!.restart();
    const lines = await startLines(app!, from);

    expect(lines.length).toBeLessThanOrEqual(MOST_START_LINES);
    expect(lineWith(lines, 'Migrations:')).toContain('Migrations: none pending');
    expect(lineWith(lines, 'Demo content')).toContain(`Demo content already seeded: ${SEEDED}`);
  });

  it('names the embedded database by a psql URL whose password file (mode 0600) opens it, never the password', async () => {
    embedded = await AppProcess.start({ name: 'start-log-embedded', env: DEFAULT_LOGGING });
    const lines = await startLines(embedded);

    expect(lines.length).toBeLessThanOrEqual(MOST_START_LINES);
    const [, printedMajor, psqlUrl] = /Database: embedded PostgreSQL (\d+); psql "([^"]+)"/.exec(
      lineWith(lines, 'Database:'),
    )!;
    const url = new URL(psqlUrl);
    expect(url.password).toBe('');
    const passwordFile = url.searchParams.get('passfile')!;
    expect(passwordFile.startsWith(embedded.dataDir)).toBe(true);
    expect(statSync(passwordFile).mode & 0o777).toBe(0o600);

    const [host, port, databaseName, user, password] = readFileSync(passwordFile, 'utf8').trim().split(':');
    expect([host, port, databaseName, user]).toEqual(['127.0.0.1', '*', '*', url.username]);
    expect(embedded.output.join('\n')).not.toContain(password);
    const major = await majorVersion({
      host: url.hostname,
      port: Number(url.port),
      database: decodeURIComponent(url.pathname.slice(1)),
      user: url.username,
      password,
    });
    expect(Number(printedMajor)).toBe(major);
  });
});
