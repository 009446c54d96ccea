import { ConnectorFetchError } from './connector-fetch-error';
import { recordsFromHeaderRow } from './header-row';

describe('header row records (Google Sheets values)', () => {
  it('names each later array by the header; short rows end in nulls', () => {
    expect(recordsFromHeaderRow([['id', 'name'], ['1', 'Ada'], ['2']], 'records.path')).toEqual([
      { id: '1', name: 'Ada' },
      { id: '2', name: null },
    ]);
  });

  it('keeps cells beyond the header or under an empty header cell, and tells repeated names apart', () => {
    expect(
      recordsFromHeaderRow(
        [
          ['a', '', 'a'],
          [1, 2, 3, 4],
        ],
        'records.path',
      ),
    ).toEqual([{ a: 1, column_2: 2, a_2: 3, column_4: 4 }]);
  });

  it('answers no records for no values, and fails on values that are not arrays', () => {
    expect(recordsFromHeaderRow([], 'records.path')).toEqual([]);
    expect(() => recordsFromHeaderRow([{ id: 1 }], 'records.path')).toThrow(ConnectorFetchError);
  });
});
