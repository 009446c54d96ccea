import { LosslessNumber } from 'lossless-json';
import { RunColumns } from './record-columns';

describe('run columns', () => {
  it('names new keys once and types them from the first page', () => {
    const columns = new RunColumns(new Set());
    const changes = columns.changesFor([
      { id: 1, createdAt: '2024-01-01T00:00:00Z', note: null },
      { id: 2, createdAt: '2024-01-02T00:00:00Z', note: null },
    ]);
    expect(changes).toEqual([
      { name: 'id', from: null, to: 'numeric' },
      { name: 'created_at', from: null, to: 'timestamptz' },
    ]);
    // A key only ever null has a name but no column yet; a timestamp's text as fetched is kept too.
    expect(columns.typed()).toEqual([
      { key: 'id', name: 'id', type: 'numeric' },
      { key: 'createdAt', name: 'created_at', type: 'timestamptz' },
      { key: 'createdAt', name: 'created_at#written', type: 'text' },
    ]);
    expect(columns.changesFor([{ id: 3, note: 'x' }])).toEqual([{ name: 'note', from: null, to: 'text' }]);
  });

  it('widens a text column only for objects, and never a jsonb one', () => {
    const columns = new RunColumns(new Set());
    columns.changesFor([{ value: 'plain' }]);
    // Dates, numbers, booleans and exact numbers all fit text already.
    expect(
      columns.changesFor([
        { value: '2024-01-01' },
        { value: 5 },
        { value: true },
        { value: new LosslessNumber('1') },
      ]),
    ).toEqual([]);
    expect(columns.changesFor([{ value: 'still text' }, { value: { nested: 1 } }])).toEqual([
      { name: 'value', from: 'text', to: 'jsonb' },
    ]);
    expect(columns.changesFor([{ value: 7 }, { value: [1] }, { value: 'x' }])).toEqual([]);
    expect(columns.typed()).toEqual([{ key: 'value', name: 'value', type: 'jsonb' }]);
  });

  it('widens from the column type a page finds: a date column meeting a timestamp, then text', () => {
    const columns = new RunColumns(new Set());
    columns.changesFor([{ day: '2024-01-01' }]);
    expect(columns.changesFor([{ day: '2024-01-02T10:00:00Z' }])).toEqual([
      { name: 'day', from: 'date', to: 'timestamptz' },
    ]);
    expect(columns.changesFor([{ day: 'soon' }])).toEqual([{ name: 'day', from: 'timestamptz', to: 'text' }]);
  });

  it('keeps a column name the table already has, and answers the primary key columns', () => {
    const columns = new RunColumns(new Set(['createdat']));
    columns.changesFor([{ createdAt: 'x', id: 1 }]);
    expect(columns.typed().map((column) => column.name)).toEqual(['createdat', 'id']);
    expect(columns.keyColumns(['id'])).toEqual(['id']);
    expect(() => columns.keyColumns(['missing'])).toThrow("primary_key field 'missing' is missing");
  });
});
