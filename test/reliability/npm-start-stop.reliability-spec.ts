import { AppProcess } from './support/app-process';
import { createReliabilityDatabase, ReliabilityDatabase, waitFor } from './support/database';

describe('reliability: the app started with npm start', () => {
  let database: ReliabilityDatabase;
  let app: AppProcess | undefined;

  beforeAll(async () => {
    database = await createReliabilityDatabase('dm_npm_start');
  });
  afterAll(async () => {
    await app?.stop();
    await database?.drop();
  });

  it('stops cleanly when npm gets SIGTERM (a service manager), leaving no server behind', async () => {
    app = await AppProcess.start({ name: 'npm-start', databaseUrl: database.url, viaNpm: true });
    await app.stop();
    // npm has exited; the server it started must be gone too, not orphaned and still listening.
    await waitFor(
      'the server to stop listening',
      async () => {
        try {
          await fetch(`${app!.baseUrl}/api/health`, { signal: AbortSignal.timeout(1000) });
          return undefined;
        } catch {
          return true;
        }
      },
      10_000,
    );
    const [{ count }] = await database.dataSource.query(
      `SELECT count(*)::int AS count FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()`,
    );
    expect(count).toBe(0);
  });
});
