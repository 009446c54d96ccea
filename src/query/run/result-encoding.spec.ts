import { csvRow, csvValue, jsonRow, jsonValue, ndjsonRow, uniqueNames } from './result-encoding';

describe('query result encoding', () => {
  it('keeps every digit of big integers and decimals, and writes non-finite numbers as strings', () => {
    expect(jsonValue('int8', '9223372036854775807')).toBe('9223372036854775807');
    expect(jsonValue('numeric', '12.50')).toBe('12.50');
    expect(jsonValue('numeric', 'NaN')).toBe('"NaN"');
    expect(jsonValue('float8', 'Infinity')).toBe('"Infinity"');
  });

  it('writes booleans, JSON, text, times and NULL', () => {
    expect(jsonValue('bool', 't')).toBe('true');
    expect(jsonValue('bool', 'f')).toBe('false');
    expect(jsonValue('jsonb', '{"a": [1]}')).toBe('{"a": [1]}');
    expect(jsonValue('text', 'say "hi"\n')).toBe('"say \\"hi\\"\\n"');
    expect(jsonValue('timestamp', '2025-11-17 05:11:07.758')).toBe('"2025-11-17 05:11:07.758"');
    expect(jsonValue('text', null)).toBe('null');
    expect(jsonValue('text', '')).toBe('""');
  });

  it('writes CSV as COPY does: NULL empty, "" for an empty string, quotes where needed', () => {
    expect(csvValue(null)).toBe('');
    expect(csvValue('')).toBe('""');
    expect(csvValue('a,b')).toBe('"a,b"');
    expect(csvValue('say "hi"')).toBe('"say ""hi"""');
    expect(csvRow(['1', null, ''])).toBe('1,,""\n');
  });

  it('builds rows and unique names', () => {
    const columns = [
      { name: 'n', type: 'int4' },
      { name: 'n', type: 'text' },
    ];
    expect(uniqueNames(columns)).toEqual(['n', 'n_2']);
    expect(jsonRow(columns, ['1', 'x'])).toBe('[1,"x"]');
    expect(ndjsonRow(columns, uniqueNames(columns), ['1', null])).toBe('{"n":1,"n_2":null}\n');
  });

  it('never gives a renamed column a name the result already has', () => {
    const named = (...names: string[]) => names.map((name) => ({ name, type: 'int4' }));
    expect(uniqueNames(named('n', 'n', 'n_2'))).toEqual(['n', 'n_3', 'n_2']);
    expect(uniqueNames(named('n_2', 'n', 'n', 'n'))).toEqual(['n_2', 'n', 'n_3', 'n_4']);
    expect(uniqueNames(named('a', 'a_2', 'a', 'a_2'))).toEqual(['a', 'a_2', 'a_3', 'a_2_2']);
  });
});
