import { closeSync, mkdirSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { join } from 'node:path';

/** The file that says which process has the data folder (and its embedded database) in use. */
export const LOCK_FILE = 'app.lock';

interface LockHolder {
  pid: number;
  port: number;
  startedAt: string;
}

/** Thrown when another running process holds the data folder. */
export class DataDirInUseError extends Error {}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to another user.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function readHolder(file: string): LockHolder | undefined {
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as LockHolder;
  } catch {
    return undefined;
  }
}

/**
 * Takes the data folder for this process, so a second `npm start` in the same folder refuses
 * instead of silently sharing one embedded database (and losing it when the first one stops).
 * A lock left by a process that has died (a crash, SIGKILL) is taken over. Answers the release,
 * which removes the file only while it is still this process's.
 */
export function lockDataDir(dataDir: string, port: number): () => void {
  mkdirSync(dataDir, { recursive: true });
  const file = join(dataDir, LOCK_FILE);
  const mine: LockHolder = { pid: process.pid, port, startedAt: new Date().toISOString() };
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      // 'wx' creates the file only if it does not exist: two starts cannot both succeed.
      const fd = openSync(file, 'wx', 0o644);
      writeSync(fd, JSON.stringify(mine));
      closeSync(fd);
      const release = () => {
        if (readHolder(file)?.pid === process.pid) rmSync(file, { force: true });
      };
      process.once('exit', release);
      return release;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    const holder = readHolder(file);
    if (holder && holder.pid !== process.pid && isAlive(holder.pid)) {
      throw new DataDirInUseError(
        `The data folder ${dataDir} is in use by another instance of the app (pid ${holder.pid}, ` +
          `port ${holder.port}, started ${holder.startedAt}). Stop it first, or start this one with ` +
          `another DATA_DIR.`,
      );
    }
    // Left by a process that no longer runs (or unreadable): take it over.
    rmSync(file, { force: true });
  }
  throw new DataDirInUseError(`The data folder ${dataDir} could not be locked (${file})`);
}
