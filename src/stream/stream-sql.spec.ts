import { csvHeaderLine, jsonKeys } from './stream-sql';
import type { SourceColumn } from './stream-source';

const column = (name: string, label: string): SourceColumn => ({ name, label, pgType: 'text' });

describe('jsonKeys', () => {
  it('uses the original labels when they are unique and short enough to be an alias', () => {
    expect(jsonKeys([column('city', 'City'), column('temp_c', 'Temp (°C)')])).toEqual(['City', 'Temp (°C)']);
  });

  it('falls back to the SQL name for duplicate, empty, reserved or over-long labels', () => {
    const long = 'L'.repeat(64);
    expect(
      jsonKeys(
        [
          column('a', 'Same'),
          column('b', 'Same'),
          column('c', ''),
          column('d', long),
          column('e', 'dataset_id'),
        ],
        ['dataset_id'],
      ),
    ).toEqual(['Same', 'b', 'c', 'd', 'e']);
  });

  it('counts bytes, not characters, against the 63-byte identifier limit', () => {
    const label = 'é'.repeat(32); // 64 bytes in UTF-8
    expect(jsonKeys([column('x', label)])).toEqual(['x']);
  });

  it('suffixes a name that is taken too until the key is unique', () => {
    expect(jsonKeys([column('a', 'b'), column('b', 'a'), column('a', 'b')])).toEqual(['b', 'a', 'a_2']);
  });
});

describe('csvHeaderLine', () => {
  it('quotes labels with commas, quotes, line breaks or edge spaces as RFC 4180 asks', () => {
    expect(csvHeaderLine(['plain', 'a,b', 'say "hi"', 'two\nlines', ' padded'])).toBe(
      'plain,"a,b","say ""hi""","two\nlines"," padded"\n',
    );
  });
});
