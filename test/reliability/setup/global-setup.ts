import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startEmbeddedPostgres } from '../../../src/database/embedded-postgres';
import { reapBeforeRun } from '../../setup/leftover-test-databases';

declare global {
  var reliabilityPostgres: { stop(): Promise<void> } | undefined;
}

/**
 * Each suite creates its own throw-away database on the server named by DATABASE_URL. Without
 * one, an embedded PostgreSQL in a temporary folder plays that server for the whole run.
 */
export default async function globalSetup(): Promise<void> {
  if (process.env.DATABASE_URL) return reapBeforeRun(process.env.DATABASE_URL);
  const folder = mkdtempSync(join(tmpdir(), 'dm-reliability-pg-'));
  // When run as root the server runs as a separate system user, which must reach the folder.
  chmodSync(folder, 0o755);
  const server = await startEmbeddedPostgres(folder, { persistent: false, database: 'postgres' });
  process.env.DATABASE_URL = server.url;
  globalThis.reliabilityPostgres = {
    stop: async () => {
      await server.stop();
      rmSync(folder, { recursive: true, force: true });
    },
  };
}
