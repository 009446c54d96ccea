import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { text } from 'node:stream/consumers';
import { readBackup, writeBackup } from './backup-file';

describe('the backup file', () => {
  let folder: string;
  const header = {
    createdAt: '2026-11-29T01:00:00.000Z',
    database: 'marketplace',
    secrets: { SESSION_SECRET: 'session', ENCRYPTION_KEY: 'ab'.repeat(32) },
  };

  beforeEach(() => (folder = mkdtempSync(join(tmpdir(), 'dm-backup-file-'))));
  afterEach(() => rmSync(folder, { recursive: true, force: true }));

  it('keeps the header and the archive bytes apart, readable only by its owner', async () => {
    const file = join(folder, 'b.dump');
    // The archive may hold newlines and anything else: only the first two lines are the header.
    await writeBackup(file, header, async (out) => void out.write('PGDMP\n\u0000binary\nrest'));
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const { header: read, archive } = readBackup(file);
    expect(read).toEqual(header);
    await expect(text(archive)).resolves.toBe('PGDMP\n\u0000binary\nrest');
  });

  it('never replaces an existing file, and refuses a file that is not a backup', async () => {
    const file = join(folder, 'other.dump');
    writeFileSync(file, 'PGDMP plain pg_dump output\n');
    await expect(writeBackup(file, header, async () => undefined)).rejects.toThrow(/EEXIST/);
    expect(() => readBackup(file)).toThrow('is not a backup made by npm run backup');
  });
});
