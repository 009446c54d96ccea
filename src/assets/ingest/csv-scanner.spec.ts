import { MAX_STORED_VALUE_BYTES } from '../../query/run/row-size-cap';
import { CsvRejection } from './csv-rejection';
import { CsvScanner, ScannerOptions } from './csv-scanner';
import { columnTypeFor } from './value-kinds';

interface ScanResult {
  rows: number;
  forwarded: string;
  types: string[];
}

/** Feeds `data` in chunks of `chunkSize` bytes (to exercise values split across chunks). */
function scan(data: string | Buffer, options: Partial<ScannerOptions> = {}, chunkSize = 1 << 16): ScanResult {
  const bytes = Buffer.isBuffer(data) ? data : Buffer.from(data);
  const scanner = new CsvScanner({
    delimiter: ',',
    columnCount: 2,
    labels: ['a', 'b'],
    lineEnding: 'lf',
    firstLine: 2,
    ...options,
  });
  const parts: Buffer[] = [];
  for (let start = 0; start < bytes.length; start += chunkSize) {
    scanner.feed(bytes.subarray(start, start + chunkSize), (part) => parts.push(Buffer.from(part)));
  }
  scanner.finish();
  const types = Array.from(scanner.kinds, (kinds, index) =>
    columnTypeFor(kinds, scanner.sawValue[index] === 1),
  );
  return { rows: scanner.rows, forwarded: Buffer.concat(parts).toString(), types };
}

function rejection(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    if (error instanceof CsvRejection) return error.message;
    throw error;
  }
  throw new Error('expected a rejection');
}

describe('CsvScanner', () => {
  it('counts rows and infers types', () => {
    expect(scan('1,a\n2,b\n3,c\n')).toEqual({
      rows: 3,
      forwarded: '1,a\n2,b\n3,c\n',
      types: ['integer', 'text'],
    });
  });

  it.each([1, 2, 3, 5, 7])('gives the same answer when chunks are %i bytes long', (size) => {
    const data = '"12",2024-01-05\n-3,2024-02-06T10:00:00Z\n"x\ny",\r\n'.replace('\r', '');
    expect(scan(data, {}, size)).toEqual(scan(data));
  });

  it('reads a last line without a line break', () => {
    expect(scan('1,a\n2,b').rows).toBe(2);
  });

  it('treats quoted line breaks as data and counts physical lines for messages', () => {
    expect(scan('"multi\nline",1\n2,3\n').rows).toBe(2);
    expect(rejection(() => scan('"multi\nline",1\n2,3,4\n'))).toBe(
      'Line 4 has 3 fields, but the header has 2 columns.',
    );
  });

  it('rejects ragged rows naming the line', () => {
    expect(rejection(() => scan('1,2\n3\n'))).toBe('Line 3 has 1 field, but the header has 2 columns.');
  });

  it('drops blank lines from what COPY receives', () => {
    expect(scan('1,2\n\n3,4\n\n')).toMatchObject({ rows: 2, forwarded: '1,2\n3,4\n' });
    expect(scan('1,2\r\n\r\n3,4\r\n', { lineEnding: 'crlf' }, 1)).toMatchObject({
      rows: 2,
      forwarded: '1,2\r\n3,4\r\n',
    });
  });

  it('keeps blank lines as NULL rows in a single-column file', () => {
    expect(scan('1\n\n3\n', { columnCount: 1 })).toMatchObject({ rows: 3, types: ['integer'] });
  });

  it('handles CRLF and rejects mixed line endings', () => {
    expect(scan('1,2\r\n3,4\r\n', { lineEnding: 'crlf' })).toMatchObject({
      rows: 2,
      types: ['integer', 'integer'],
    });
    expect(rejection(() => scan('1,2\r\n3,4\n', { lineEnding: 'crlf' }))).toMatch(/^Line 3 ends with LF/);
    expect(rejection(() => scan('1,2\n3,4\r\n'))).toMatch(/^Line 3 has a carriage return/);
  });

  it('falls back to text when one value does not fit', () => {
    expect(scan('1,2024-01-01\n2.5,yesterday\n').types).toEqual(['numeric', 'text']);
    expect(scan('true,\nfalse,\n').types).toEqual(['boolean', 'text']);
  });

  it('lets neither empty nor quoted-empty values decide a type', () => {
    expect(scan('1,""\n,2\n').types).toEqual(['integer', 'integer']);
  });

  it('uses the chosen delimiter', () => {
    expect(scan('1;2,5\n', { delimiter: ';' })).toMatchObject({ rows: 1, types: ['integer', 'text'] });
    expect(scan('1\t2\n', { delimiter: '\t' }).rows).toBe(1);
  });

  it('rejects an unterminated quote naming the line it started on', () => {
    expect(rejection(() => scan('1,2\n"open,3\n4,5\n'))).toBe(
      'Line 3: a quoted field is never closed (missing closing quote).',
    );
  });

  it('rejects invalid UTF-8 with the line, also when a character is split across chunks', () => {
    expect(
      rejection(() => scan(Buffer.concat([Buffer.from('1,2\n3,'), Buffer.from([0xff]), Buffer.from('\n')]))),
    ).toMatch(/^Line 3 is not valid UTF-8/);
    expect(scan('é,ü\n€,😀\n', {}, 1).rows).toBe(2);
    expect(rejection(() => scan(Buffer.concat([Buffer.from('1,2\n3,'), Buffer.from([0xe2, 0x82])])))).toMatch(
      /not valid UTF-8/,
    );
  });

  it('rejects binary content', () => {
    expect(rejection(() => scan(Buffer.from([0x31, 0x2c, 0x00, 0x0a])))).toBe(
      'The file is not a CSV text file (it contains binary data).',
    );
  });

  describe('loading into a dataset’s columns', () => {
    const expected: ScannerOptions['expected'] = [
      { label: 'Amount', type: 'integer' },
      { label: 'Day', type: 'date' },
    ];

    it.each([1, 2, 3, 64])('takes values their columns can hold (%i-byte chunks)', (size) => {
      expect(scan('1,2024-01-05\n"2",\n,2024-02-06\n', { expected }, size)).toMatchObject({ rows: 3 });
    });

    it.each([1, 3, 64])(
      'refuses the first value its column cannot hold, naming line and value (%i-byte chunks)',
      (size) => {
        expect(
          rejection(() => scan('1,2024-01-05\n2,2024-01-06\n007,2024-01-07\nx,y\n', { expected }, size)),
        ).toBe('Column "Amount" expects integer, but line 4 has "007"');
        expect(rejection(() => scan('"two\nlines",2024-01-05\n', { expected }, size))).toBe(
          'Column "Amount" expects integer, but line 2 has "two lines"',
        );
      },
    );

    it('counts the physical lines of quoted line breaks before the value', () => {
      const columns: ScannerOptions['expected'] = [
        { label: 'Note', type: 'text' },
        { label: 'Day', type: 'date' },
      ];
      expect(rejection(() => scan('"a\nb\nc",2024-01-05\nd,soon\n', { expected: columns }))).toBe(
        'Column "Day" expects date, but line 5 has "soon"',
      );
    });

    it('takes times with and without offset into a timestamptz column, only naive ones into a timestamp one', () => {
      const columns: ScannerOptions['expected'] = [
        { label: 'Instant', type: 'timestamptz' },
        { label: 'Local', type: 'timestamp' },
      ];
      const naive = '2025-11-17 05:11:07';
      expect(scan(`2025-11-17T05:11:07Z,${naive}\n${naive},${naive}\n`, { expected: columns }).rows).toBe(2);
      expect(rejection(() => scan(`${naive},2025-11-17T05:11:07+02:00\n`, { expected: columns }))).toBe(
        'Column "Local" expects timestamp, but line 2 has "2025-11-17T05:11:07+02:00"',
      );
    });

    it('takes any value into a text column', () => {
      const columns: ScannerOptions['expected'] = [
        { label: 'Note', type: 'text' },
        { label: 'Flag', type: 'boolean' },
      ];
      expect(scan('"x ""y"", z",true\n007,NO\n', { expected: columns }).rows).toBe(2);
    });

    it.each([1, 64, 66])('marks a value too long to be typed as cut short (%i-byte chunks)', (size) => {
      expect(rejection(() => scan(`${'9'.repeat(70)},2024-01-05\n`, { expected }, size))).toBe(
        `Column "Amount" expects integer, but line 2 has "${'9'.repeat(40)}…"`,
      );
    });

    it.each([1, 64])('quotes a refused value as written, without its quotes (%i-byte chunks)', (size) => {
      expect(rejection(() => scan('"N/A ""none""",2024-01-05\n', { expected }, size))).toBe(
        'Column "Amount" expects integer, but line 2 has "N/A "none""',
      );
      expect(rejection(() => scan(`"${'é'.repeat(40)}",2024-01-05\n`, { expected }, size))).toBe(
        `Column "Amount" expects integer, but line 2 has "${'é'.repeat(31)}…"`,
      );
    });
  });

  describe('value size cap', () => {
    const CAP = MAX_STORED_VALUE_BYTES;
    const TOO_LARGE = 'Line 3, column "b": a value may be at most 16 MB.';

    it.each([1 << 16, 1000003])(
      'takes a value of exactly the cap, plain or quoted (%i-byte chunks)',
      (size) => {
        expect(scan(`x,y\n1,${'v'.repeat(CAP)}\n`, {}, size).rows).toBe(2);
        // Quotes around it are not stored, and a doubled quote is stored once.
        const quoted = `"${'""'.repeat(10)}${'v'.repeat(CAP - 10)}"`;
        expect(scan(`x,y\n1,${quoted}\n`, {}, size).rows).toBe(2);
      },
    );

    it.each([1 << 16, 1000003])('refuses a value one byte past the cap (%i-byte chunks)', (size) => {
      expect(rejection(() => scan(`x,y\n1,${'v'.repeat(CAP + 1)}\n`, {}, size))).toBe(TOO_LARGE);
      expect(rejection(() => scan(`x,y\n1,"${'""'.repeat(11)}${'v'.repeat(CAP - 10)}"\n`, {}, size))).toBe(
        TOO_LARGE,
      );
      // The last value of a file without a final line break too.
      expect(rejection(() => scan(`x,y\n1,${'v'.repeat(CAP + 1)}`, {}, size))).toBe(TOO_LARGE);
    });

    it('counts a doubled quote split across two chunks once', () => {
      // The file's first 65,536 bytes end with the first quote of the pair.
      const head = 'x,y\n1,"';
      const before = 'v'.repeat((1 << 16) - head.length - 1);
      const value = (rest: number) => `${head}${before}""${'v'.repeat(rest)}"\n`;
      expect(scan(value(CAP - before.length - 1)).rows).toBe(2);
      expect(rejection(() => scan(value(CAP - before.length)))).toBe(
        'Line 3, column "b": a value may be at most 16 MB.',
      );
    });

    it('names the column by its header label, or its position without one', () => {
      const value = 'v'.repeat(CAP + 1);
      expect(rejection(() => scan(`${value},1\n`, { labels: ['Notes', ''] }))).toBe(
        'Line 2, column "Notes": a value may be at most 16 MB.',
      );
      expect(rejection(() => scan(`1,${value}\n`, { labels: ['Notes', ''] }))).toBe(
        'Line 2, column "Column 2": a value may be at most 16 MB.',
      );
    });

    it('refuses a value as soon as it passes the cap, before it ends', () => {
      const scanner = new CsvScanner({
        delimiter: ',',
        columnCount: 2,
        labels: ['a', 'b'],
        lineEnding: 'lf',
        firstLine: 2,
      });
      const chunk = Buffer.alloc(1 << 16, 'v');
      scanner.feed(Buffer.from('1,"'), () => undefined);
      let fed = 0;
      expect(() => {
        for (;;) {
          scanner.feed(chunk, () => undefined);
          fed += chunk.length;
          if (fed > 2 * CAP) break;
        }
      }).toThrow('Line 2, column "b": a value may be at most 16 MB.');
      expect(fed).toBeLessThanOrEqual(CAP);
    });
  });
});
