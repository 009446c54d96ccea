import { Client } from 'pg';
import { ReplicatedPostgres } from '../test/support/replicated-postgres';
import { RunningProcess, startApi } from './api-process';

const DATABASE = 'marketplace';
/** Longest the new database may take to reach the replica on a busy machine. */
const REPLAY_WAIT_MS = 120_000;

/** The API with user SQL on a streaming replica (QUERY_DATABASE_URL), on servers of its own. */
export interface ReplicaDeployment {
  /** The app's database on the primary. */
  databaseUrl: string;
  /** The same database on the replica, where user statements run. */
  replicaUrl: string;
  api: RunningProcess;
  /** Stops the API and removes both servers; safe to call twice. */
  stop(): Promise<void>;
}

async function answers(url: string): Promise<boolean> {
  const client = new Client({ connectionString: url });
  try {
    await client.connect();
    await client.query('SELECT 1');
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
}

/**
 * A throw-away primary and streaming replica (the reliability test's), the replica lowered to
 * the last core and idle priority so that it plays a host of its own on this one machine, and
 * the built API on the primary with QUERY_DATABASE_URL on the replica. pg_ctl starts the servers
 * outside this process, so they are also removed when the bench is interrupted (SIGINT, SIGTERM).
 */
export async function startReplicaDeployment(logFile: string): Promise<ReplicaDeployment> {
  // hot_standby_feedback: replay does not cancel a long user statement (as the reliability test).
  const cluster = await ReplicatedPostgres.start({ settings: ['hot_standby_feedback=on'] });
  let api: RunningProcess | undefined;
  let stopping: Promise<void> | undefined;
  const stop = () =>
    (stopping ??= (async () => {
      process.off('SIGINT', onSignal).off('SIGTERM', onSignal);
      await api?.stop().catch(() => undefined);
      await cluster.destroy();
    })());
  const onSignal = (signal: NodeJS.Signals) => {
    void stop().finally(() => process.exit(signal === 'SIGINT' ? 130 : 143));
  };
  process.once('SIGINT', onSignal).once('SIGTERM', onSignal);
  try {
    const admin = new Client({ connectionString: cluster.primaryUrl });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${DATABASE}`);
    await admin.end();
    // Backends started from now on (every user statement's) get the last core at idle priority.
    await cluster.lowerReplicaPriority();
    const databaseUrl = cluster.urlOf(cluster.primaryPort, DATABASE);
    const replicaUrl = cluster.urlOf(cluster.replicaPort, DATABASE);
    const deadline = Date.now() + REPLAY_WAIT_MS;
    while (!(await answers(replicaUrl))) {
      if (Date.now() > deadline)
        throw new Error(`the database did not reach the replica in ${REPLAY_WAIT_MS} ms`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    api = await startApi(databaseUrl, logFile, undefined, { QUERY_DATABASE_URL: replicaUrl });
    return { databaseUrl, replicaUrl, api, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}
