import { copyTextValue, CopyTextRows, READ_CHARS } from './copy-text-rows';
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

describe('rows of COPY text format: a read of wide rows', () => {
  it('hands over rows until they hold READ_CHARS, then the rest on the next reads', async () => {
    const row = `1\t${'x'.repeat(1_500_000)}\n`;
    const chunks = (async function* () {
      for (let sent = 0; sent < 10; sent += 1) yield Buffer.from(row);
    })();
    const rows = new CopyTextRows(chunks, 2);
    const sizes: number[] = [];
    for (let read = await rows.read(1000); read.length > 0; read = await rows.read(1000))
      sizes.push(read.length);
    // Three rows pass 4 MiB: never the ten at once.
    expect(sizes).toEqual([3, 3, 3, 1]);
    expect(READ_CHARS).toBe(4 * 1024 * 1024);
  });
});

describe('rows of COPY text format: cost', () => {
  const WIDE = 16 * 1024 * 1024 - 64 * 1024;
  const piece = Buffer.from('x'.repeat(64 * 1024));
  const pieces = function* (): Generator<Buffer> {
    for (let sent = 0; sent < WIDE; sent += piece.length) yield piece;
    yield Buffer.from('\n');
  };
  /** How long `work` takes, in ms. */
  const timed = async (work: () => unknown): Promise<number> => {
    const began = performance.now();
    await work();
    return performance.now() - began;
  };

  it('assembles a row in time linear in its bytes', async () => {
    // Against the least any reader must do with the same chunks (join them and decode them once),
    // measured in turns in one process, so a busy machine slows both alike. Linear assembly costs a
    // few times that; rescanning the row so far on each of its 256 chunks cost hundreds of times.
    let assembly = Infinity;
    let baseline = Infinity;
    for (let run = 0; run < 5; run++) {
      baseline = Math.min(
        baseline,
        await timed(() =>
          Buffer.concat([...pieces()])
            .toString('utf8')
            .split('\n'),
        ),
      );
      assembly = Math.min(
        assembly,
        await timed(() =>
          new CopyTextRows(
            (async function* () {
              yield* pieces();
            })(),
            1,
          ).read(1),
        ),
      );
    }
    expect(assembly / baseline).toBeLessThan(40);
  });
});
