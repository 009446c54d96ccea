import {
  columnNamesFor,
  detectDelimiter,
  headerLooksLikeData,
  locateHeader,
  splitHeader,
} from './csv-header';

describe('locateHeader', () => {
  it('finds the end of an LF header', () => {
    expect(locateHeader(Buffer.from('a,b\n1,2\n'))).toEqual({
      dataStart: 4,
      headerEnd: 3,
      lineEnding: 'lf',
      lines: 1,
    });
  });

  it('recognises CRLF and leaves the CR out of the header', () => {
    expect(locateHeader(Buffer.from('a,b\r\n1,2\r\n'))).toEqual({
      dataStart: 5,
      headerEnd: 3,
      lineEnding: 'crlf',
      lines: 1,
    });
  });

  it('keeps a line break inside a quoted name within the header', () => {
    expect(locateHeader(Buffer.from('"first\nname",b\n1,2\n'))).toMatchObject({ dataStart: 15, lines: 2 });
  });

  it('answers null while the header line is not complete', () => {
    expect(locateHeader(Buffer.from('a,b'))).toBeNull();
  });
});

describe('detectDelimiter', () => {
  it.each([
    ['name,price,qty', ','],
    ['name;price;qty', ';'],
    ['name\tprice\tqty', '\t'],
    ['"a;b",c,d', ','],
    ['single', ','],
  ])('detects the delimiter of %p', (header, expected) => {
    expect(detectDelimiter(header)).toBe(expected);
  });
});

describe('splitHeader', () => {
  it('unquotes names, keeps doubled quotes and trims spaces', () => {
    expect(splitHeader('"Price, USD"," say ""hi"" ", plain ', ',')).toEqual([
      'Price, USD',
      'say "hi"',
      'plain',
    ]);
  });
});

describe('headerLooksLikeData', () => {
  it('flags a first line of numbers or an empty first line', () => {
    expect(headerLooksLikeData(['1', '2.5', '2024-01-01'])).toBe(true);
    expect(headerLooksLikeData(['', ''])).toBe(true);
  });

  it('flags a first line whose values have the kinds of the line below', () => {
    expect(headerLooksLikeData(['1', '2', '3'], ['4', '5', '6'])).toBe(true);
    expect(headerLooksLikeData(['1', 'true', '2024-01-01'], ['2', 'false', '2024-01-02'])).toBe(true);
  });

  it('accepts real column names, even next to year-like names', () => {
    expect(headerLooksLikeData(['country', '2020', '2021'])).toBe(false);
  });

  it('accepts names that only look like values: letters, distinct years, words over numbers', () => {
    expect(headerLooksLikeData(['n'], ['1.10'])).toBe(false);
    expect(headerLooksLikeData(['y'])).toBe(false);
    expect(headerLooksLikeData(['2022', '2023', '2024'], ['10', '20', '30'])).toBe(false);
    expect(headerLooksLikeData(['Yes', 'No'], ['10', '20'])).toBe(false);
    expect(headerLooksLikeData(['true'], ['1'])).toBe(false);
  });
});

describe('columnNamesFor', () => {
  it('makes safe, unique, lower-case names', () => {
    expect(
      columnNamesFor([
        'First Name',
        'first-name',
        'Prix (€)',
        '2024 Sales',
        '',
        'Ünïcode',
        'ctid',
        'a"; DROP TABLE x; --',
      ]),
    ).toEqual([
      'first_name',
      'first_name_2',
      'prix',
      'c_2024_sales',
      'column_5',
      'unicode',
      'ctid_column',
      'a_drop_table_x',
    ]);
  });

  it('keeps names within the Postgres identifier limit', () => {
    const [name] = columnNamesFor(['x'.repeat(200)]);
    expect(name.length).toBeLessThanOrEqual(56);
  });
});
