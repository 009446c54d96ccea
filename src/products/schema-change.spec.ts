import { breaksPublishedColumns, describeSchemaChange, schemaChange } from './schema-change';

describe('schemaChange', () => {
  const published = [
    { name: 'city', type: 'text' as const },
    { name: 'population', type: 'integer' as const },
    { name: 'area', type: 'numeric' as const },
  ];

  it('finds nothing when only the order of the columns differs', () => {
    const change = schemaChange(published, [...published].reverse());
    expect(change).toEqual({ added: [], dropped: [], retyped: [] });
    expect(breaksPublishedColumns(change)).toBe(false);
  });

  it('an added column alone does not break the published columns', () => {
    const change = schemaChange(published, [...published, { name: 'mayor', type: 'text' }]);
    expect(change.added).toEqual([{ name: 'mayor', type: 'text' }]);
    expect(breaksPublishedColumns(change)).toBe(false);
  });

  it('a dropped or retyped published column breaks them, and is described for the notice', () => {
    const change = schemaChange(published, [
      { name: 'city', type: 'text' },
      { name: 'population', type: 'text' },
      { name: 'mayor', type: 'text' },
    ]);
    expect(change).toEqual({
      added: [{ name: 'mayor', type: 'text' }],
      dropped: [{ name: 'area', type: 'numeric' }],
      retyped: [{ name: 'population', from: 'integer', to: 'text' }],
    });
    expect(breaksPublishedColumns(change)).toBe(true);
    expect(describeSchemaChange(change)).toBe(
      'dropped: area; retyped: population (integer → text); added: mayor',
    );
  });
});
