import { DictionaryEncoder } from './parquet-dictionary';

/** The indices of a data page's values: bit width, one bit-packed run's header, then the bits. */
function unpack(indices: Uint8Array, count: number): number[] {
  const width = indices[0];
  let at = 1;
  while (indices[at] & 0x80) at++;
  at++;
  const unpacked: number[] = [];
  for (let index = 0; index < count; index++) {
    let value = 0;
    for (let bit = 0; bit < width; bit++) {
      const position = index * width + bit;
      if (indices[at + (position >> 3)] & (1 << (position & 7))) value |= 1 << bit;
    }
    unpacked.push(value);
  }
  return unpacked;
}

describe('DictionaryEncoder', () => {
  it('tells INT64 values apart that share their low word, and keeps them in order of first use', () => {
    const values = new BigInt64Array(
      Array.from({ length: 64 }, (_, index) => [1n, 1n + (1n << 32n), -1n][index % 3]),
    );
    const chunk = new DictionaryEncoder().encode(new Uint8Array(values.buffer), values.length, 8)!;
    expect(chunk.entries).toBe(3);
    expect([...new BigInt64Array(chunk.dictionary.slice().buffer)]).toEqual([1n, 1n + (1n << 32n), -1n]);
    expect(unpack(chunk.indices, values.length)).toEqual(Array.from({ length: 64 }, (_, index) => index % 3));
  });

  it('answers nothing for values that do not repeat', () => {
    const values = new Int32Array(Array.from({ length: 5000 }, (_, index) => index * 65536));
    expect(new DictionaryEncoder().encode(new Uint8Array(values.buffer), values.length, 4)).toBeUndefined();
  });
});
