import { isLosslessNumber } from 'lossless-json';
import { mayHoldLongNumber, parseExactJson } from './decoder';

/** What mayHoldLongNumber stands for: a run of 16 or more digits and points anywhere. */
const LONG_RUN = /[\d.]{16}/;

describe('mayHoldLongNumber', () => {
  it('finds a run of 16 digits wherever it starts, and no run of 15', () => {
    for (let offset = 0; offset < 40; offset++) {
      const prefix = 'x'.repeat(offset);
      expect(mayHoldLongNumber(`${prefix}1234567890123456`)).toBe(true);
      expect(mayHoldLongNumber(`${prefix}1234567890123456,`)).toBe(true);
      expect(mayHoldLongNumber(`${prefix}123456789012345,`)).toBe(false);
      expect(mayHoldLongNumber(`${prefix}0.12345678901234`)).toBe(true);
    }
  });

  it('agrees with a plain pattern search on many mixed texts', () => {
    // A fixed pseudo-random sequence: digits, points and separators in runs of every length.
    let seed = 7;
    const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31);
    for (let sample = 0; sample < 2000; sample++) {
      let text = '';
      while (text.length < 120) {
        const run = next() % 20;
        text += next() % 3 === 0 ? ',' : '"';
        for (let index = 0; index < run; index++) text += next() % 10 === 0 ? '.' : String(next() % 10);
      }
      expect(mayHoldLongNumber(text)).toBe(LONG_RUN.test(text));
    }
  });
});

describe('parseExactJson', () => {
  it('keeps every digit of a long number and answers the rest as JSON.parse does', () => {
    const parsed = parseExactJson('{"id":12345678901234567890,"amount":12.5,"name":"a"}') as Record<
      string,
      unknown
    >;
    expect(isLosslessNumber(parsed.id)).toBe(true);
    expect(String(parsed.id)).toBe('12345678901234567890');
    expect(parsed.amount).toBe(12.5);
    expect(parseExactJson('{"id":123456789012345,"at":"2024-01-01T00:00:00Z"}')).toEqual({
      id: 123456789012345,
      at: '2024-01-01T00:00:00Z',
    });
  });
});
