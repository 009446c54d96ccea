import { copyTextValue, CopyTextRows } from './copy-text-rows';

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
});
