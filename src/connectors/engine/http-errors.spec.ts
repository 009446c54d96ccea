import { excerpt, printable } from './http-errors';

describe('response excerpts in messages', () => {
  it('shows binary data by its size only', () => {
    expect(excerpt(Buffer.from([0x50, 0x4b, 0x03, 0x04, 0x00, 0x00, 0x61]))).toBe('(7 bytes of binary data)');
  });

  it('shows text on one line, control characters replaced', () => {
    expect(excerpt(Buffer.from('{"error":\n "bad\u0007 value"}'))).toBe('{"error": "bad\uFFFD value"}');
    expect(printable('a\u0000b')).toBe('a\uFFFDb');
  });
});
