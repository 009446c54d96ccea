import { MISFIT_VALUE_CHARS, quotedValue } from './csv-rejection';

describe('quotedValue: a refused value as a message quotes it', () => {
  it('quotes a short value as it is', () => {
    expect(quotedValue('abc')).toBe('"abc"');
  });

  it(`cuts a value longer than ${MISFIT_VALUE_CHARS} characters and marks the cut`, () => {
    expect(quotedValue('x'.repeat(MISFIT_VALUE_CHARS))).toBe(`"${'x'.repeat(MISFIT_VALUE_CHARS)}"`);
    expect(quotedValue('y'.repeat(MISFIT_VALUE_CHARS + 1))).toBe(`"${'y'.repeat(MISFIT_VALUE_CHARS)}…"`);
  });

  it('keeps the message on one line and never splits a character in two', () => {
    expect(quotedValue('two\nlines\ttab')).toBe('"two lines tab"');
    expect(quotedValue('😀'.repeat(MISFIT_VALUE_CHARS + 5))).toBe(`"${'😀'.repeat(MISFIT_VALUE_CHARS)}…"`);
  });

  it('marks a value of which only the start is at hand as cut short', () => {
    expect(quotedValue('1234', true)).toBe('"1234…"');
  });
});
