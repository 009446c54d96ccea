import { excerpt, printable, parseProblem } from './http-errors';

describe('response excerpts in messages', () => {
  it('shows binary data by its size only', () => {
    expect(excerpt(Buffer.from([0x50, 0x4b, 0x03, 0x04, 0x00, 0x00, 0x61]))).toBe('(7 bytes of binary data)');
  });

  it('shows text on one line, control characters replaced', () => {
    expect(excerpt(Buffer.from('{"error":\n "bad\u0007 value"}'))).toBe('{"error": "bad\uFFFD value"}');
    expect(printable('a\u0000b')).toBe('a\uFFFDb');
  });
});

describe('parseProblem', () => {
  it('keeps a binary body out of the text, parser quote and all', () => {
    const png = Buffer.concat([
      Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0]),
      Buffer.alloc(2000, 7),
    ]);
    let problem = '';
    try {
      JSON.parse(png.toString('utf8'));
    } catch (error) {
      problem = parseProblem(error, png);
    }
    expect(problem).toBe('(2009 bytes of binary data)');
  });

  it('keeps the parser reason and a printable excerpt for text', () => {
    let problem = '';
    const body = Buffer.from('{"a": oops}');
    try {
      JSON.parse(body.toString('utf8'));
    } catch (error) {
      problem = parseProblem(error, body);
    }
    expect(problem).toMatch(/^\(.*JSON.*\): \{"a": oops\}$/);
  });
});
