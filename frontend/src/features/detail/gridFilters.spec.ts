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
