import { once } from 'node:events';
import { createReadStream, lstatSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { Client } from 'pg';
import { pack, type Pack } from 'tar-stream';

/**
 * A base backup of the embedded database by PostgreSQL's low-level API ("Making a Base Backup
 * Using the Low Level API"), as a tar of its data folder: it needs no client tools (the embedded
 * package ships none, and a machine with only Node has no pg_dump of its version), and it runs
 * beside a running app. The files are copied between pg_backup_start and pg_backup_stop, the
 * backup_label that pg_backup_stop answers is added, then the WAL from the start to the end of the
 * backup, which a temporary replication slot keeps from being recycled meanwhile. Started on such a
 * folder, PostgreSQL replays that WAL and comes up consistent as of the end of the backup.
 */

/** Folders whose contents a base backup leaves out: the server rebuilds them (the documented list). */
const EMPTIED_FOLDERS = new Set([
  'pg_wal',
  'pg_replslot',
  'pg_dynshmem',
  'pg_notify',
  'pg_serial',
  'pg_snapshots',
  'pg_stat_tmp',
  'pg_subtrans',
]);
/** Files of the running server, never part of a backup. */
const LEFT_OUT_FILES = new Set(['postmaster.pid', 'postmaster.opts', 'backup_label', 'tablespace_map']);

const SLOT = 'npm_run_backup';
/** A WAL segment's name: timeline, then log and segment, 8 hex digits each. */
const SEGMENT = /^[0-9A-F]{24}$/;

function isLeftOut(name: string): boolean {
  return LEFT_OUT_FILES.has(name) || name.startsWith('pgsql_tmp') || name === 'pg_internal.init';
}

/** Adds one file of `size` bytes as it is now; a file that shrank meanwhile is padded with zeros. */
async function addFile(archive: Pack, path: string, name: string, size: number): Promise<void> {
  let entry!: ReturnType<Pack['entry']>;
  const added = new Promise<void>((done, failed) => {
    entry = archive.entry({ name, size, mode: 0o600, type: 'file' }, (error) =>
      error ? failed(error) : done(),
    );
  });
  let copied = 0;
  if (size > 0) {
    const source = createReadStream(path, { start: 0, end: size - 1 });
    source.on('data', (chunk) => (copied += chunk.length));
    try {
      await pipeline(source, entry, { end: false });
    } catch (error) {
      // A file dropped after it was listed (a table dropped meanwhile): WAL replay drops it too.
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
  }
  // As pg_basebackup does: a file truncated while it was read is padded; replay truncates it again.
  entry.end(copied < size ? Buffer.alloc(size - copied) : undefined);
  await added;
}

/** Adds the folder `relative` of the data folder, and everything under it that belongs in a backup. */
async function addFolder(archive: Pack, dataDir: string, relative: string): Promise<void> {
  if (relative) archive.entry({ name: relative, type: 'directory', mode: 0o700 });
  const folder = join(dataDir, relative);
  let names: string[];
  try {
    names = readdirSync(folder);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw error;
  }
  for (const name of names.sort()) {
    if (isLeftOut(name)) continue;
    const child = relative ? `${relative}/${name}` : name;
    let stat;
    try {
      stat = lstatSync(join(folder, name));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') continue;
      throw error;
    }
    if (stat.isDirectory()) {
      if (!relative && EMPTIED_FOLDERS.has(name))
        archive.entry({ name: child, type: 'directory', mode: 0o700 });
      else await addFolder(archive, dataDir, child);
    } else if (stat.isFile()) {
      await addFile(archive, join(folder, name), child, stat.size);
    }
  }
}

/**
 * Copies the tar into `out` and leaves `out` open for its writer to end (pipeline's `end: false`
 * does not hold for tar-stream's streams, which end their destination).
 */
async function copyWithoutEnding(archive: Pack, out: Writable): Promise<void> {
  for await (const chunk of archive as AsyncIterable<Buffer>) {
    if (!out.write(chunk)) await once(out, 'drain');
  }
}

/** The WAL segments from `first` to `last` (by name) and the timeline history files. */
function walToKeep(dataDir: string, first: string, last: string): string[] {
  return readdirSync(join(dataDir, 'pg_wal'))
    .filter((name) => (SEGMENT.test(name) && name >= first && name <= last) || name.endsWith('.history'))
    .sort();
}

/**
 * Writes a tar of the running embedded server's data folder `dataDir` to `out`, taken through
 * `url` (a superuser's connection, as the embedded server's own user is).
 */
export async function backUpCluster(url: string, dataDir: string, out: Writable): Promise<void> {
  const client = new Client({ connectionString: url });
  await client.connect();
  const archive = pack();
  const written = copyWithoutEnding(archive, out);
  try {
    // Temporary: dropped when this session ends, whatever happens to the command.
    await client.query('SELECT pg_create_physical_replication_slot($1, true, true)', [SLOT]);
    const started = await client.query<{ wal: string }>(
      `SELECT pg_walfile_name(pg_backup_start('npm run backup', true)) AS wal`,
    );
    await addFolder(archive, dataDir, '');
    const stopped = await client.query<{ labelfile: string; spcmapfile: string; wal: string }>(
      `SELECT labelfile, spcmapfile, pg_walfile_name(lsn) AS wal FROM pg_backup_stop(false)`,
    );
    const { labelfile, spcmapfile, wal } = stopped.rows[0];
    archive.entry({ name: 'backup_label', mode: 0o600 }, labelfile);
    if (spcmapfile) archive.entry({ name: 'tablespace_map', mode: 0o600 }, spcmapfile);
    archive.entry({ name: 'pg_wal/archive_status', type: 'directory', mode: 0o700 });
    for (const name of walToKeep(dataDir, started.rows[0].wal, wal)) {
      const path = join(dataDir, 'pg_wal', name);
      await addFile(archive, path, `pg_wal/${name}`, lstatSync(path).size);
    }
    archive.finalize();
    await written;
  } catch (error) {
    archive.destroy(error as Error);
    await written.catch(() => undefined);
    throw error;
  } finally {
    await client.end();
  }
}
