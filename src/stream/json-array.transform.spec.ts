import { Readable } from 'node:stream';
import { text } from 'node:stream/consumers';
import { JsonArrayTransform, JsonRowsTransform } from './json-array.transform';

async function throughTransform(chunks: string[]): Promise<string> {
  return text(Readable.from(chunks.map((chunk) => Buffer.from(chunk))).pipe(new JsonArrayTransform()));
}

describe('JsonArrayTransform', () => {
  it('answers an empty array when no row came', async () => {
    expect(await throughTransform([])).toBe('[]');
  });

  it('joins newline-terminated rows into one array', async () => {
    expect(await throughTransform(['{"a":1}\n{"a":2}\n'])).toBe('[{"a":1},{"a":2}]');
  });

  it('handles rows and terminators split across chunks anywhere', async () => {
    const rows = '{"a":"x\\ny"}\n{"b":"\u00e9\u20ac"}\n{"c":[1,2]}\n';
    const bytes = Buffer.from(rows);
    for (let cut = 1; cut < bytes.length; cut++) {
      const parts = [bytes.subarray(0, cut), bytes.subarray(cut)];
      const joined = await text(Readable.from(parts).pipe(new JsonArrayTransform()));
      expect(JSON.parse(joined)).toEqual([{ a: 'x\ny' }, { b: 'é€' }, { c: [1, 2] }]);
    }
  });
});

describe('JsonRowsTransform with a trailer mark', () => {
  async function page(chunks: Buffer[]): Promise<string> {
    const envelope = {
      open: () => '{"value":[',
      close: (trailer: string | undefined) => `],"trailer":${JSON.stringify(trailer ?? null)}}`,
    };
    return text(Readable.from(chunks).pipe(new JsonRowsTransform(envelope, '#')));
  }

  it('writes the envelope around no rows', async () => {
    expect(JSON.parse(await page([]))).toEqual({ value: [], trailer: null });
  });

  it('holds back a final marked line and hands it to close, wherever the chunks split', async () => {
    const bytes = Buffer.from('{"a":"#x"}\n{"b":"\u00e9"}\n#190000\n');
    for (let cut = 1; cut < bytes.length; cut++) {
      for (const second of [cut + 1, bytes.length]) {
        const parts = [bytes.subarray(0, cut), bytes.subarray(cut, second), bytes.subarray(second)];
        expect(JSON.parse(await page(parts))).toEqual({
          value: [{ a: '#x' }, { b: 'é' }],
          trailer: '190000',
        });
      }
    }
  });

  it('hands an empty trailer over as empty text, not as none', async () => {
    expect(JSON.parse(await page([Buffer.from('{"a":1}\n#\n')]))).toEqual({ value: [{ a: 1 }], trailer: '' });
  });
});
