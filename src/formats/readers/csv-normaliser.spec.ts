import { CANONICAL_DIALECT, CsvDialect } from './csv-dialect';
import { CsvNormaliser } from './csv-normaliser';
import { rewriteRules, rewriteValue } from './value-rewrite';

const GERMAN: CsvDialect = {
  delimiter: ';',
  encoding: 'utf-8',
  decimal: ',',
  thousands: '.',
  dateOrder: 'dmy',
};
const ALL = { numbers: true, dates: true };

/** Feeds `text` in chunks of `size` bytes and joins what comes out. */
function normalise(text: string, dialect: CsvDialect, columns: number, size: number): string {
  const normaliser = new CsvNormaliser(
    dialect,
    Array.from({ length: columns }, () => ALL),
  );
  const bytes = Buffer.from(text);
  const parts: Buffer[] = [];
  for (let at = 0; at < bytes.length; at += size) parts.push(normaliser.push(bytes.subarray(at, at + size)));
  parts.push(normaliser.end());
  return Buffer.concat(parts).toString('utf8');
}

describe('rewriteValue', () => {
  const german = rewriteRules(GERMAN);
  it.each([
    ['1.234,5', '1234.5'],
    ['-7,25', '-7.25'],
    ['12', '12'],
    ['1.234.567', '1234567'],
    ['31.12.2024', '2024-12-31'],
    ['1.2.2024 08:30', '2024-02-01 08:30'],
  ])('writes %p of a German file as %p', (value, canonical) => {
    expect(rewriteValue(value, german)).toBe(canonical);
  });

  it.each(['1.23,4', 'abc', '1,2,3', '32.01.2024', '1.13.2024', ',5x'])(
    'leaves %p as written: no number or date of the dialect',
    (value) => {
      expect(rewriteValue(value, german)).toBe(value);
    },
  );

  it('reads month-first dates and comma thousands', () => {
    const us = rewriteRules({ ...CANONICAL_DIALECT, thousands: ',', dateOrder: 'mdy' });
    expect(rewriteValue('12/31/2024', us)).toBe('2024-12-31');
    expect(rewriteValue('1,234,567.5', us)).toBe('1234567.5');
  });

  it('takes the no-break space as a space thousands separator', () => {
    const french = rewriteRules({ ...GERMAN, thousands: ' ' });
    expect(rewriteValue('1\u00a0234,5', french)).toBe('1234.5');
  });
});

describe('CsvNormaliser', () => {
  const text =
    'München;1.234,50;31.12.2024\r\n"Köln; Dom";"7,25";1.2.2025\r\n"a ""q""";x,y;\r\nlast;3,5;02.01.2025';
  const canonical =
    'München;1234.50;2024-12-31\r\n"Köln; Dom";"7.25";2025-02-01\r\n"a ""q""";x,y;\r\nlast;3.5;2025-01-02';

  it.each([1, 2, 3, 7, 64, 4096])(
    'rewrites numbers and dates alike whatever the chunk size (%p bytes)',
    (size) => {
      expect(normalise(text, GERMAN, 3, size)).toBe(canonical);
    },
  );

  it('keeps a quoted line break inside its record', () => {
    expect(normalise('"x\ny";1,5\nz;2,5\n', GERMAN, 2, 3)).toBe('"x\ny";1.5\nz;2.5\n');
  });

  it('leaves columns that are not to be rewritten as written', () => {
    const normaliser = new CsvNormaliser(GERMAN, [{ numbers: false, dates: false }, ALL]);
    const out = Buffer.concat([normaliser.push(Buffer.from('1,5;1,5\n')), normaliser.end()]);
    expect(out.toString()).toBe('1,5;1.5\n');
  });

  it('passes an unclosed quote through for the scanner to name', () => {
    expect(normalise('a;1,5\n"open;2,5\n', GERMAN, 2, 4)).toBe('a;1.5\n"open;2,5\n');
  });

  it.each([1, 2, 7, 64, 4096])(
    'passes long values through and keeps rewriting after them (%p-byte chunks)',
    (size) => {
      const quoted = `"${'a;b""\n'.repeat(40)}"`;
      const plain = 'x,y'.repeat(40);
      const text = `${quoted};1,5;${plain}\n${plain};"${'""'.repeat(50)}";2,5\n3,5;${quoted};4,5`;
      const canonical = `${quoted};1.5;${plain}\n${plain};"${'""'.repeat(50)}";2.5\n3.5;${quoted};4.5`;
      expect(normalise(text, GERMAN, 3, size)).toBe(canonical);
    },
  );

  it('hands on a value too long to rewrite as it arrives, never holding it until it ends', () => {
    const normaliser = new CsvNormaliser(GERMAN, [ALL, ALL, ALL]);
    const chunk = Buffer.alloc(1 << 16, 'v');
    expect(normaliser.push(Buffer.from('1,5;"')).toString()).toBe('1.5;');
    expect(normaliser.push(chunk).toString()).toBe(`"${chunk.toString()}`);
    for (let count = 0; count < 100; count++) expect(normaliser.push(chunk)).toBe(chunk);
    expect(normaliser.push(Buffer.from('";"2,5"\n')).toString()).toBe('";"2.5"\n');
  });

  it('says when nothing would change', () => {
    expect(CsvNormaliser.rewritesAnything({ ...CANONICAL_DIALECT, delimiter: ';' }, [ALL])).toBe(false);
    expect(CsvNormaliser.rewritesAnything(GERMAN, [{ numbers: false, dates: false }])).toBe(false);
    expect(CsvNormaliser.rewritesAnything(GERMAN, [ALL])).toBe(true);
  });
});
