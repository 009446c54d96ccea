import { copyTextValue, CopyTextRows } from './copy-text-rows';
import { QUERY_MAX_ROW_BYTES, RowTooLarge } from './row-size-cap';

async function* chunks(...texts: string[]): AsyncGenerator<Buffer> {
  for (const text of texts) yield Buffer.from(text);
}

describe('rows of COPY text format', () => {
  it('reads NULL and undoes the escapes', () => {
    expect(copyTextValue('\\N')).toBeNull();
    expect(copyTextValue('a\\tb\\\\c\\nd\\re')).toBe('a\tb\\c\nd\re');
    expect(copyTextValue('')).toBe('');
  });

  it('gives rows as asked for, across chunks cut inside a row and inside a character', async () => {
    const euro = Buffer.from('€');
    const rows = new CopyTextRows(
      (async function* () {
        yield* chunks('1\ta\n2\t');
        yield Buffer.concat([Buffer.from('x'), euro.subarray(0, 1)]);
        yield Buffer.concat([euro.subarray(1), Buffer.from('\n3\t\\N\n')]);
      })(),
      2,
    );
    expect(await rows.read(2)).toEqual([
      ['1', 'a'],
      ['2', 'x€'],
    ]);
    expect(await rows.read(5)).toEqual([['3', null]]);
    expect(await rows.read(1)).toEqual([]);
  });

  it('joins a row cut into many chunks, and refuses one past the cap', async () => {
    const piece = 'x'.repeat(64 * 1024);
    const pieces = (total: number) =>
      (async function* () {
        yield Buffer.from('1\t');
        for (let sent = 0; sent < total; sent += piece.length) yield Buffer.from(piece);
        yield Buffer.from('\n');
      })();
    const wide = await new CopyTextRows(pieces(4 * 1024 * 1024), 2).read(2);
    expect(wide).toHaveLength(1);
    expect(wide[0][1]).toHaveLength(4 * 1024 * 1024);
    await expect(new CopyTextRows(pieces(QUERY_MAX_ROW_BYTES + 1), 2).read(1)).rejects.toBeInstanceOf(
      RowTooLarge,
    );
  });
});

describe('rows of COPY text format: cost', () => {
  /** The fastest of a few reads of one row of `bytes` cut into 64 KB chunks, in ms. */
  const fastestRead = async (bytes: number): Promise<number> => {
    const piece = Buffer.from('x'.repeat(64 * 1024));
    let fastest = Infinity;
    for (let run = 0; run < 5; run++) {
      const began = performance.now();
      await new CopyTextRows(
        (async function* () {
          for (let sent = 0; sent < bytes; sent += piece.length) yield piece;
          yield Buffer.from('\n');
        })(),
        1,
      ).read(1);
      fastest = Math.min(fastest, performance.now() - began);
    }
    return fastest;
  };

  it('assembles a row in time linear in its bytes', async () => {
    // Eight times the bytes: about eight times the work when linear, sixty-four when every chunk
    // rescans the row so far. Compared in one process, so a busy machine slows both alike.
    const small = await fastestRead(2 * 1024 * 1024);
    const large = await fastestRead(16 * 1024 * 1024 - 64 * 1024);
    expect(large / small).toBeLessThan(24);
  });
});
