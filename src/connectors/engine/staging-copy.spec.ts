import { csvRows } from './staging-copy';

describe('staging COPY rows', () => {
  const run = { runId: 'run-1', fetchedAt: '2024-01-01T00:00:00.000Z' };

  it('writes one CSV line per row, run columns first, nulls empty, text and JSON quoted', () => {
    const csv = csvRows(
      run,
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
    expect(csv).toBe(
      'run-1,2024-01-01T00:00:00.000Z,1,"Ann, ""A""","[""a""]",\n' +
        'run-1,2024-01-01T00:00:00.000Z,2,,"{""b"":1}",\n',
    );
  });

  it('writes nothing for a page without rows', () => {
    expect(csvRows(run, [], [{ key: 'id', name: 'id', type: 'numeric' }])).toBe('');
  });
});
