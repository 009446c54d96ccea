import { csvRows } from './staging-copy';

describe('staging COPY rows', () => {
  it('writes one CSV line per row of the typed columns, nulls empty, text and JSON quoted', () => {
    const csv = csvRows(
      [
        { id: 1, name: 'Ann, "A"', tags: ['a'], missing: undefined },
        { id: 2, name: null, tags: { b: 1 } },
      ],
      [
        { key: 'id', name: 'id', type: 'numeric' },
        { key: 'name', name: 'name', type: 'text' },
        { key: 'tags', name: 'tags', type: 'jsonb' },
        { key: 'missing', name: 'missing', type: 'boolean' },
      ],
    );
    expect(csv).toBe('1,"Ann, ""A""","[""a""]",\n' + '2,,"{""b"":1}",\n');
  });

  it('writes nothing for a page without rows', () => {
    expect(csvRows([], [{ key: 'id', name: 'id', type: 'numeric' }])).toBe('');
  });
});
