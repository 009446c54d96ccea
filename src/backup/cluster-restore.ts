import { execFile } from 'node:child_process';
import { createWriteStream, existsSync, mkdirSync, renameSync, rmSync } from 'node:fs';
import { dirname, join, normalize, sep } from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { promisify } from 'node:util';
import { extract } from 'tar-stream';

const run = promisify(execFile);

/**
 * The path of a tar entry inside `into`, refusing any that would land outside it (`../`, absolute
 * paths): a backup file is input like any other.
 */
function placeOf(into: string, name: string): string {
  const relative = normalize(name).replace(/^(\.\/)+/, '');
  if (relative.startsWith('..') || relative.startsWith(sep) || relative === '.' || relative === '')
    throw new Error(`The backup holds a path outside the data folder (${name}): it is not a backup of ours`);
  return join(into, relative);
}

/** Unpacks a tar of a data folder into `into`: folders 0700, files 0600, as PostgreSQL wants them. */
async function unpack(archive: Readable, into: string): Promise<void> {
  mkdirSync(into, { recursive: true, mode: 0o700 });
  const entries = extract();
  const unpacked = (async () => {
    for await (const entry of entries) {
      const place = placeOf(into, entry.header.name);
      if (entry.header.type === 'directory') {
        mkdirSync(place, { recursive: true, mode: 0o700 });
        entry.resume();
      } else if (entry.header.type === 'file') {
        mkdirSync(dirname(place), { recursive: true, mode: 0o700 });
        await pipeline(entry, createWriteStream(place, { mode: 0o600 }));
      } else {
        throw new Error(`The backup holds an entry of type ${entry.header.type}: it is not a backup of ours`);
      }
    }
  })();
  await Promise.all([pipeline(archive, entries), unpacked]);
}

/**
 * As root the embedded server runs as the system user `postgres` (the embedded package creates it
 * on first start, and so does this on a machine that never ran the app): the data must be its own.
 */
async function giveToPostgresUser(folder: string): Promise<void> {
  if (process.getuid?.() !== 0) return;
  const exists = await run('id', ['-u', 'postgres']).then(
    () => true,
    () => false,
  );
  if (!exists) {
    await run('groupadd', ['postgres']).catch(() => undefined);
    await run('useradd', ['-g', 'postgres', 'postgres']);
  }
  await run('chown', ['-R', 'postgres:postgres', folder]);
}

/**
 * Lays the backup's data folder down in place of `dataDir` (the embedded server must be stopped),
 * then `check` starts the server on it (which replays the backup's WAL) and reads from it. Until
 * that has worked the folder it replaces is kept aside, and put back if anything fails.
 */
export async function restoreCluster(
  archive: Readable,
  dataDir: string,
  check: () => Promise<void>,
): Promise<void> {
  const aside = `${dataDir}.before-restore`;
  rmSync(aside, { recursive: true, force: true });
  if (existsSync(dataDir)) renameSync(dataDir, aside);
  try {
    await unpack(archive, dataDir);
    await giveToPostgresUser(dataDir);
    await check();
  } catch (error) {
    rmSync(dataDir, { recursive: true, force: true });
    if (existsSync(aside)) renameSync(aside, dataDir);
    throw error;
  }
  rmSync(aside, { recursive: true, force: true });
}
