import { snappyUncompress } from 'hyparquet';
import { snappyCompress } from './snappy';

/** Decoded by hyparquet's Snappy reader, an implementation independent of this one. */
function roundTrip(input: Uint8Array): Uint8Array {
  const output = new Uint8Array(input.length);
  snappyUncompress(snappyCompress(input), output);
  return output;
}

/** Bytes no 4-byte match repeats in: the search skips ahead and emits them as literals. */
function noise(length: number): Uint8Array {
  const bytes = new Uint8Array(length);
  let state = 42;
  for (let index = 0; index < length; index++) {
    state = (Math.imul(state, 1103515245) + 12345) >>> 0;
    bytes[index] = state >>> 24;
  }
  return bytes;
}

describe('snappyCompress', () => {
  const INPUTS: Array<[string, Uint8Array]> = [
    ['nothing', new Uint8Array(0)],
    ['one byte', Uint8Array.of(7)],
    ['fewer bytes than the block margin', new Uint8Array(14).fill(9)],
    ['a run across several 64 KiB blocks', new Uint8Array(200_000).fill(3)],
    ['random bytes (literals of over 256 bytes)', noise(150_000)],
    ['a literal of 61 to 256 bytes, then copies', Buffer.concat([noise(100), Buffer.from('ab'.repeat(100))])],
    ['repeated text', Buffer.from('status open, status closed; '.repeat(20_000))],
    ['text and noise mixed', Buffer.concat([noise(70_000), Buffer.from('ab'.repeat(40_000)), noise(61)])],
  ];

  it.each(INPUTS)('gives back %s exactly', (_name, input) => {
    expect(Buffer.from(roundTrip(input)).equals(Buffer.from(input))).toBe(true);
  });

  it('stays within the format’s bound on random bytes and shrinks repeated text many times', () => {
    const random = noise(150_000);
    expect(snappyCompress(random).length).toBeLessThanOrEqual(32 + random.length + random.length / 6);
    const text = Buffer.from('status open, status closed; '.repeat(20_000));
    expect(snappyCompress(text).length).toBeLessThan(text.length / 10);
  });

  it('answers bytes alone in their buffer, which can move to another thread', () => {
    const compressed = snappyCompress(Buffer.from('abc'.repeat(1000)));
    expect(compressed.byteOffset).toBe(0);
    expect(compressed.buffer.byteLength).toBe(compressed.length);
  });
});
