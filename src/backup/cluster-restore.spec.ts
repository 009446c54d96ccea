import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pack } from 'tar-stream';
import { restoreCluster } from './cluster-restore';

/** A tar holding one file per name. */
async function tarOf(names: string[]): Promise<Readable> {
  const archive = pack();
  for (const name of names) archive.entry({ name, mode: 0o600 }, 'restored');
  archive.finalize();
  const chunks: Buffer[] = [];
  for await (const chunk of archive as AsyncIterable<Buffer>) chunks.push(chunk);
  return Readable.from([Buffer.concat(chunks)]);
}

describe('laying a backup of the embedded database down', () => {
  let root: string;
  let dataDir: string;
  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'dm-cluster-restore-'));
    dataDir = join(root, 'postgres');
    mkdirSync(dataDir);
    writeFileSync(join(dataDir, 'PG_VERSION'), 'before');
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it.each(['../outside', '/etc/outside', 'base/../../outside'])(
    'refuses an entry that would land outside the folder (%s) and keeps the folder as it was',
    async (name) => {
      await expect(
        restoreCluster(await tarOf(['PG_VERSION', name]), dataDir, async () => undefined),
      ).rejects.toThrow(/outside the data folder/);
      expect(existsSync(join(root, 'outside'))).toBe(false);
      expect(readFileSync(join(dataDir, 'PG_VERSION'), 'utf8')).toBe('before');
      expect(existsSync(`${dataDir}.before-restore`)).toBe(false);
    },
  );

  it('puts the folder before it back when the restored server fails its check', async () => {
    const check = async () => {
      expect(readFileSync(join(dataDir, 'PG_VERSION'), 'utf8')).toBe('restored');
      throw new Error('the server did not start');
    };
    await expect(restoreCluster(await tarOf(['PG_VERSION']), dataDir, check)).rejects.toThrow(
      /did not start/,
    );
    expect(readFileSync(join(dataDir, 'PG_VERSION'), 'utf8')).toBe('before');
  });

  it('replaces the folder once the check passes', async () => {
    await restoreCluster(await tarOf(['PG_VERSION', 'base/1/1259']), dataDir, async () => undefined);
    expect(readFileSync(join(dataDir, 'base/1/1259'), 'utf8')).toBe('restored');
    expect(existsSync(`${dataDir}.before-restore`)).toBe(false);
  });
});
