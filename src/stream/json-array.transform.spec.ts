import { Readable } from 'node:stream';
import { text } from 'node:stream/consumers';
import { JsonArrayTransform } from './json-array.transform';

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
