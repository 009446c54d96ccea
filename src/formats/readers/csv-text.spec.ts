import { csvField, isoWallClock } from './csv-text';

describe('csvField', () => {
  it.each([
    [null, ''],
    ['', '""'],
    ['plain', 'plain'],
    ['a, b', '"a, b"'],
    ['say "hi"', '"say ""hi"""'],
    ['two\nlines', '"two\nlines"'],
  ])('writes %p as %p', (value, field) => {
    expect(csvField(value)).toBe(field);
  });
});

describe('isoWallClock', () => {
  it('writes midnight as the date alone and other times with seconds, milliseconds only when there are some', () => {
    expect(isoWallClock(new Date(Date.UTC(2024, 11, 31)))).toBe('2024-12-31');
    expect(isoWallClock(new Date(Date.UTC(2024, 11, 31, 8, 30)))).toBe('2024-12-31 08:30:00');
    expect(isoWallClock(new Date(Date.UTC(2024, 11, 31, 8, 30, 1, 250)))).toBe('2024-12-31 08:30:01.250');
  });
});
