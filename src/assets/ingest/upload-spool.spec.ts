import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SpooledReader, UploadSpool } from './upload-spool';

async function readAll(spool: UploadSpool): Promise<string> {
  const parts: Buffer[] = [];
  for await (const part of spool.read()) parts.push(part);
  return Buffer.concat(parts).toString();
}

async function* chunksOf(...parts: string[]): AsyncGenerator<Buffer> {
  for (const part of parts) yield Buffer.from(part);
}

describe('UploadSpool', () => {
  let directory: string;

  beforeEach(async () => {
    directory = await mkdtemp(join(tmpdir(), 'spool-spec-'));
  });
  afterEach(() => rm(directory, { recursive: true, force: true }));

  it('reads back every appended byte in order, more than once, and leaves no file in the directory', async () => {
    const spool = await UploadSpool.open(directory);
    expect(await readdir(directory)).toEqual([]);
    const big = 'x'.repeat(3 * 1024 * 1024 + 5);
    for (const part of ['id,name\n', big, '', '\n9,last\n']) await spool.append(Buffer.from(part));
    expect(await spool.complete()).toBe(true);
    const expected = `id,name\n${big}\n9,last\n`;
    expect(await readAll(spool)).toBe(expected);
    expect(await readAll(spool)).toBe(expected);
    await spool.close();
  });

  it('is not usable, and says so instead of throwing, when the directory cannot hold it', async () => {
    const spool = await UploadSpool.open(join(directory, 'missing'));
    await spool.append(Buffer.from('a,b\n'));
    expect(await spool.complete()).toBe(false);
    await expect(readAll(spool)).rejects.toThrow('The upload copy is incomplete');
    await spool.close();
  });
});

describe('SpooledReader', () => {
  it('hands out the first bytes, then the chunks, keeping each in the spool; drain reads the rest', async () => {
    const directory = await mkdtemp(join(tmpdir(), 'spool-spec-'));
    try {
      const spool = await UploadSpool.open(directory);
      const source = chunksOf('2,b\n', '3,c\n', '4,d\n');
      const reader = new SpooledReader(Buffer.from('1,a\n'), source, spool);
      expect((await reader.next())?.toString()).toBe('1,a\n');
      // Two reads asked for at once still reach the spool in file order.
      const [second, third] = await Promise.all([reader.next(), reader.next()]);
      expect([second?.toString(), third?.toString()]).toEqual(['2,b\n', '3,c\n']);
      await reader.drain();
      expect(await reader.next()).toBeUndefined();
      expect(await readAll(spool)).toBe('1,a\n2,b\n3,c\n4,d\n');
      await spool.close();
    } finally {
      await rm(directory, { recursive: true, force: true });
    }
  });

  it('keeps failing after the source failed once, though the source then reports its end', async () => {
    const directory = await mkdtemp(join(tmpdir(), 'spool-spec-'));
    try {
      const spool = await UploadSpool.open(directory);
      // Like a destroyed stream's iterator: one rejection, then done for ever after.
      const cutOff = new Error('The upload was interrupted before the file was complete.');
      let calls = 0;
      const source: AsyncIterator<Buffer> = {
        next: async () => {
          calls++;
          if (calls === 1) return { done: false, value: Buffer.from('1,a\n') };
          if (calls === 2) throw cutOff;
          return { done: true, value: undefined };
        },
      };
      const reader = new SpooledReader(Buffer.alloc(0), source, spool);
      expect((await reader.next())?.toString()).toBe('1,a\n');
      // A cancelled pass is the one that sees the failure, and drops it.
      await reader.next().catch(() => undefined);
      await expect(reader.drain()).rejects.toBe(cutOff);
      await expect(reader.next()).rejects.toBe(cutOff);
      await spool.close();
    } finally {
      await rm(directory, { recursive: true, force: true });
    }
  });
});
