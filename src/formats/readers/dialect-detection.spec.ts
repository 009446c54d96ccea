import iconv from 'iconv-lite';
import { detectDateOrder, detectDialect, detectEncoding, detectNumberStyle } from './dialect-detection';

describe('detectDialect', () => {
  it('reads a semicolon, Latin-1, decimal-comma, day-first file', () => {
    const text = 'Stadt;Betrag;Datum\nMünchen;1.234,50;31.12.2024\nKöln;7,25;01.02.2025\n';
    expect(detectDialect(iconv.encode(text, 'latin1'))).toEqual({
      delimiter: ';',
      encoding: 'windows-1252',
      decimal: ',',
      thousands: '.',
      dateOrder: 'dmy',
    });
  });

  it('reads a plain UTF-8 comma file as the canonical dialect', () => {
    const text = 'city,amount,day\nParis,12.5,2024-01-31\nLyon,3,2024-02-01\n';
    expect(detectDialect(Buffer.from(text))).toEqual({
      delimiter: ',',
      encoding: 'utf-8',
      decimal: '.',
      thousands: '',
      dateOrder: 'ymd',
    });
  });

  it.each([
    ['\t', 'a\tb\tc\n1\t2\t3\n'],
    ['|', 'a|b|c\n1|2|3\n'],
    [';', 'a;b\n"x;y";2\n"1,5";3\n'],
    [',', 'name,note\nBob,"a;b;c"\nAnn,"d;e;f"\n'],
  ])('finds the delimiter %p', (delimiter, text) => {
    expect(detectDialect(Buffer.from(text)).delimiter).toBe(delimiter);
  });

  it('reads US grouping: 1,234.5 is a dot decimal with comma thousands', () => {
    const text = 'item;price\na;1,234.50\nb;12,345,678.00\n';
    expect(detectDialect(Buffer.from(text))).toMatchObject({ decimal: '.', thousands: ',' });
  });
});

describe('detectEncoding', () => {
  it('follows a UTF-16 BOM either way round', () => {
    expect(detectEncoding(Buffer.from([0xff, 0xfe, 0x61, 0x00]))).toBe('utf-16le');
    expect(detectEncoding(Buffer.from([0xfe, 0xff, 0x00, 0x61]))).toBe('utf-16be');
  });

  it('takes UTF-8 with a BOM, or cut in the middle of a character at the end of the sample', () => {
    expect(detectEncoding(Buffer.from('\uFEFFa,b\n'))).toBe('utf-8');
    expect(detectEncoding(Buffer.from('a,é').subarray(0, 3))).toBe('utf-8');
  });

  it('falls back to the single-byte encoding for bytes that are not UTF-8', () => {
    expect(detectEncoding(Buffer.from([0x61, 0xe9, 0x0a]))).toBe('windows-1252');
  });

  it('reads a UTF-16 file with its BOM through to the dialect', () => {
    const bytes = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('a;b\n1,5;2\n', 'utf16le')]);
    expect(detectDialect(bytes)).toMatchObject({ encoding: 'utf-16le', delimiter: ';', decimal: ',' });
  });
});

describe('detectNumberStyle', () => {
  it('takes a comma followed by other than three digits as a decimal comma', () => {
    expect(detectNumberStyle(['1,5', '2,25', '3'])).toEqual({ decimal: ',', thousands: '' });
  });

  it('takes dot decimals as the default', () => {
    expect(detectNumberStyle(['1.5', 'x', ''])).toEqual({ decimal: '.', thousands: '' });
  });

  it('finds space thousands with a decimal comma', () => {
    expect(detectNumberStyle(['1 234,5', '2 000 000,00'])).toEqual({ decimal: ',', thousands: ' ' });
  });
});

describe('detectDateOrder', () => {
  it('answers day-first when a first part is above 12', () => {
    expect(detectDateOrder(['01/02/2024', '25/12/2024'])).toBe('dmy');
  });

  it('answers month-first when a second part is above 12', () => {
    expect(detectDateOrder(['01/02/2024', '12/25/2024 10:00'])).toBe('mdy');
  });

  it('answers ymd when no dates of that form appear', () => {
    expect(detectDateOrder(['2024-01-02', 'x'])).toBe('ymd');
  });
});
