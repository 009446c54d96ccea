import { Logger } from '@nestjs/common';
import { Client } from 'pg';
import { markStopping } from '../../src/common/process-stopping';
import { RUNNER_LOCK_NAMESPACE, RunnerLiveness } from '../../src/connectors/runs/runner-liveness';
import { testDatabaseUrl } from '../support/test-app';

/** The liveness connection ended by the database: a warning while running, quiet once stopping (Ctrl-C). */
describe('runner liveness: a lost connection', () => {
  let admin: Client;

  beforeAll(async () => {
    admin = new Client({ connectionString: testDatabaseUrl() });
    await admin.connect();
  });
  afterAll(async () => {
    await admin.end();
  });

  /** Holds the lock, has the server end that connection, and answers what was logged as a warning. */
  async function loseConnection(runnerId: string): Promise<string[]> {
    const warnings: string[] = [];
    const warn = jest.spyOn(Logger.prototype, 'warn').mockImplementation((message: unknown) => {
      warnings.push(String(message));
    });
    const errors: Error[] = [];
    let lostClient: Client | undefined;
    const liveness = new RunnerLiveness(() => {
      lostClient = new Client({ connectionString: testDatabaseUrl() });
      lostClient.on('error', (error: Error) => errors.push(error));
      return lostClient;
    }, runnerId);
    try {
      await liveness.hold();
      await admin.query(
        `SELECT pg_terminate_backend(pid) FROM pg_locks
          WHERE locktype = 'advisory' AND classid = $1::int4::oid AND objid = hashtext($2)::oid`,
        [RUNNER_LOCK_NAMESPACE, runnerId],
      );
      // Wait on the event itself, bounded: the client reports the end of its connection.
      const deadline = Date.now() + 10_000;
      while (errors.length === 0 && Date.now() < deadline) await new Promise((done) => setTimeout(done, 20));
      expect(errors).not.toHaveLength(0);
    } finally {
      warn.mockRestore();
      await liveness.release();
    }
    return warnings;
  }

  it('warns when the process is running', async () => {
    const warnings = await loseConnection(`liveness-running-${Date.now()}`);
    expect(warnings).not.toHaveLength(0);
    for (const warning of warnings) expect(warning).toContain('Runner liveness connection lost');
  });

  it('writes no warning once the process is stopping', async () => {
    markStopping();
    expect(await loseConnection(`liveness-stopping-${Date.now()}`)).toEqual([]);
  });
});
