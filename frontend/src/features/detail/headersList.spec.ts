import { addHeaderRow, headersToRows, removeHeaderRow, rowsToHeaders, updateHeaderRow } from './headersList';

describe('custom headers editing', () => {
  it('lists stored headers as rows and back', () => {
    const rows = headersToRows({ 'X-Token': 'abc', Accept: 'application/json' });
    expect(rows).toHaveLength(2);
    expect(rowsToHeaders(rows)).toEqual({ 'X-Token': 'abc', Accept: 'application/json' });
  });

  it('adds an empty row with a fresh id', () => {
    const rows = addHeaderRow(headersToRows({ A: '1' }));
    expect(rows[1]).toEqual({ id: 2, key: '', value: '' });
  });

  it('removes only the chosen row', () => {
    const rows = headersToRows({ A: '1', B: '2' });
    expect(rowsToHeaders(removeHeaderRow(rows, rows[0].id))).toEqual({ B: '2' });
  });

  it('edits one row', () => {
    const rows = addHeaderRow([]);
    const edited = updateHeaderRow(rows, rows[0].id, { key: 'X-Api', value: 'k' });
    expect(rowsToHeaders(edited)).toEqual({ 'X-Api': 'k' });
  });

  it('drops rows without a name and trims names', () => {
    expect(
      rowsToHeaders([
        { id: 1, key: '  ', value: 'ignored' },
        { id: 2, key: ' X-Trim ', value: 'v' },
      ]),
    ).toEqual({ 'X-Trim': 'v' });
  });
});
