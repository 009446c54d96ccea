import { serverFilters } from './gridFilters';

describe('serverFilters', () => {
  it('turns grid filter items into column:operator:value', () => {
    expect(
      serverFilters([
        { field: 'city', operator: 'contains', value: 'ber' },
        { field: 'amount', operator: '>=', value: 10 },
        { field: 'day', operator: 'before', value: new Date('2024-03-01T00:00:00Z') },
        { field: 'active', operator: 'is', value: 'true' },
        { field: 'note', operator: 'isEmpty' },
      ]),
    ).toEqual([
      'city:contains:ber',
      'amount:gte:10',
      'day:lt:2024-03-01',
      'active:equals:true',
      'note:empty',
    ]);
  });

  it('keeps the time of day of a date-time column, as an instant in UTC', () => {
    const picked = new Date('2024-09-01T10:00:00Z');
    expect(
      serverFilters(
        [
          { field: 'created_at', operator: 'after', value: picked },
          { field: 'day', operator: 'after', value: picked },
        ],
        new Set(['created_at']),
      ),
    ).toEqual(['created_at:gt:2024-09-01T10:00:00.000Z', 'day:gt:2024-09-01']);
  });

  it('sends the digits picked, without offset, on a date-time column without offsets', () => {
    // Built from local parts, as the grid's picker builds it from what was typed.
    const picked = new Date(2025, 10, 17, 5, 11, 7);
    expect(
      serverFilters(
        [{ field: 'seen_at', operator: 'onOrAfter', value: picked }],
        new Set(),
        new Set(['seen_at']),
      ),
    ).toEqual(['seen_at:gte:2025-11-17T05:11:07']);
  });

  it('leaves out items without a value and operators the server does not know', () => {
    expect(
      serverFilters([
        { field: 'city', operator: 'contains', value: '' },
        { field: 'city', operator: 'startsWith', value: 'B' },
        { field: 'amount', operator: '=' },
      ]),
    ).toEqual([]);
  });
});
