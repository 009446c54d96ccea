import { MAX_STORED_VALUE_BYTES } from '../../query/run/row-size-cap';
import { ConnectorFetchError } from './connector-fetch-error';
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

  describe('value size cap', () => {
    const CAP = MAX_STORED_VALUE_BYTES;
    const columns = [
      { key: 'id', name: 'id', type: 'numeric' as const },
      { key: 'body', name: 'body', type: 'text' as const },
      { key: 'doc', name: 'doc', type: 'jsonb' as const },
    ];
    const refusal = (run: () => unknown) => {
      try {
        run();
      } catch (error) {
        expect(error).toBeInstanceOf(ConnectorFetchError);
        return (error as Error).message;
      }
      throw new Error('expected a refusal');
    };

    it('takes values of exactly the cap, counted as stored (UTF-8, without the CSV quotes)', () => {
      const rows = [
        { id: 1, body: 'é'.repeat(CAP / 2), doc: null },
        { id: 2, body: `"${'v'.repeat(CAP - 2)}"`, doc: { k: 'v'.repeat(CAP - 8) } },
      ];
      // {"k":"…"} is 8 bytes around the text.
      expect(csvRows(rows, columns).split('\n')).toHaveLength(3);
    });

    it('refuses a value past the cap, naming its row in the run and its column', () => {
      expect(
        refusal(() => csvRows([{ id: 1 }, { id: 2, body: 'é'.repeat(CAP / 2) + 'v' }], columns, 41)),
      ).toBe('Row 42, column "body": a value may be at most 16 MB.');
      expect(refusal(() => csvRows([{ id: 1, doc: { k: 'v'.repeat(CAP - 7) } }], columns))).toBe(
        'Row 1, column "doc": a value may be at most 16 MB.',
      );
    });
  });
});
