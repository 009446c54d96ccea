import { ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DataDirInUseError, LOCK_FILE, lockDataDir } from './data-dir-lock';

describe('the data folder lock', () => {
  let folder: string;
  let other: ChildProcess | undefined;

  beforeEach(() => {
    folder = mkdtempSync(join(tmpdir(), 'dm-lock-'));
  });
  afterEach(() => {
    other?.kill('SIGKILL');
    other = undefined;
    rmSync(folder, { recursive: true, force: true });
  });

  it('refuses while another running process holds it, naming its pid and port', () => {
    other = spawn(process.execPath, ['-e', 'setTimeout(() => undefined, 60000)'], { stdio: 'ignore' });
    writeFileSync(
      join(folder, LOCK_FILE),
      JSON.stringify({ pid: other.pid, port: 3123, startedAt: '2026-11-29T00:00:00.000Z' }),
    );
    expect(() => lockDataDir(folder, 3000)).toThrow(DataDirInUseError);
    expect(() => lockDataDir(folder, 3000)).toThrow(`pid ${other.pid}, port 3123`);
  });

  it('takes over a lock left by a process that has died, and releases it', async () => {
    other = spawn(process.execPath, ['-e', '0'], { stdio: 'ignore' });
    const deadPid = other.pid;
    await new Promise((done) => other!.once('exit', done));
    writeFileSync(join(folder, LOCK_FILE), JSON.stringify({ pid: deadPid, port: 3123, startedAt: 'then' }));
    const release = lockDataDir(folder, 3456);
    expect(JSON.parse(readFileSync(join(folder, LOCK_FILE), 'utf8'))).toMatchObject({
      pid: process.pid,
      port: 3456,
    });
    release();
    expect(existsSync(join(folder, LOCK_FILE))).toBe(false);
  });
});
