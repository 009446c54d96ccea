import { once } from 'node:events';
import { createReadStream, createWriteStream, openSync, closeSync, readSync } from 'node:fs';
import { Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';

/**
 * A backup file: one line naming the format, one line of JSON (when, which app, the secrets), then
 * the database, byte for byte: pg_dump's custom format, or a tar of the embedded server's folder. One file, so the database can never be
 * restored without the ENCRYPTION_KEY its connector credentials need, nor with another one.
 */
const MAGIC = 'data-marketplace backup 1';
/** The header lines are short; anything longer is not a backup of ours. */
const MAX_HEADER_BYTES = 64 * 1024;

export interface BackupSecrets {
  SESSION_SECRET: string;
  ENCRYPTION_KEY: string;
}

export interface BackupHeader {
  createdAt: string;
  /**
   * What follows the header: pg_dump's custom format (a server named by DATABASE_URL; backups
   * without the field are of this kind), or a tar of the embedded server's data folder.
   */
  format?: 'pg_dump' | 'embedded';
  /** For an embedded backup: the password of the server's own user, which its folder keeps. */
  embeddedPassword?: string;
  /** The database name it was taken from (for the operator's eyes only). */
  database: string;
  secrets: BackupSecrets;
}

/**
 * Writes the header, then whatever `dump` writes. The file is created with mode 0600 (it holds the
 * secrets) and never replaces an existing one.
 */
export async function writeBackup(
  file: string,
  header: BackupHeader,
  dump: (out: Writable) => Promise<void>,
): Promise<void> {
  const out = createWriteStream(file, { flags: 'wx', mode: 0o600 });
  await once(out, 'open');
  out.write(`${MAGIC}\n${JSON.stringify(header)}\n`);
  await dump(out);
  out.end();
  await once(out, 'finish');
}

/** The header and a stream of the archive after it; throws when the file is no backup. */
export function readBackup(file: string): { header: BackupHeader; archive: Readable } {
  const fd = openSync(file, 'r');
  const buffer = Buffer.alloc(MAX_HEADER_BYTES);
  const length = readSync(fd, buffer, 0, MAX_HEADER_BYTES, 0);
  closeSync(fd);
  const first = buffer.indexOf(10);
  const second = first === -1 ? -1 : buffer.indexOf(10, first + 1);
  if (second === -1 || second >= length || buffer.subarray(0, first).toString() !== MAGIC) {
    throw new Error(`${file} is not a backup made by npm run backup`);
  }
  const header = JSON.parse(buffer.subarray(first + 1, second).toString()) as BackupHeader;
  return { header, archive: createReadStream(file, { start: second + 1 }) };
}

/** Copies `from` into `to` without ending it (the caller may write more). */
export function copyInto(from: Readable, to: Writable): Promise<void> {
  return pipeline(from, to, { end: false });
}
