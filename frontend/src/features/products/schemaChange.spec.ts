import type { SchemaChange } from '../../api/liveProducts';
import { runOutcomeColor, runOutcomeLabel, schemaChangeRows, schemaChangeSummary } from './schemaChange';

const change: SchemaChange = {
  detected_at: '2026-03-10T12:00:00Z',
  added: [{ name: 'salinity', type: 'numeric' }],
  dropped: [
    { name: 'depth_m', type: 'integer' },
    { name: 'unit', type: 'text' },
  ],
  retyped: [{ name: 'hour', from: 'integer', to: 'text' }],
};

describe('schemaChangeRows', () => {
  it('lists dropped, then retyped (old → new type), then added columns', () => {
    expect(schemaChangeRows(change)).toEqual([
      { name: 'depth_m', kind: 'Dropped', detail: 'integer' },
      { name: 'unit', kind: 'Dropped', detail: 'text' },
      { name: 'hour', kind: 'Retyped', detail: 'integer → text' },
      { name: 'salinity', kind: 'Added', detail: 'numeric' },
    ]);
  });
});

describe('schemaChangeSummary', () => {
  it('counts each kind of change, naming columns once', () => {
    expect(schemaChangeSummary(change)).toBe('2 columns dropped, 1 retyped, 1 added');
    expect(schemaChangeSummary({ ...change, dropped: [], added: [] })).toBe('1 column retyped');
    expect(schemaChangeSummary({ ...change, dropped: [], retyped: [] })).toBe('1 column added');
  });
});

describe('run outcomes', () => {
  it('reads each outcome in words, a held schema change as a warning and a failure as an error', () => {
    expect(runOutcomeLabel('unchanged')).toBe('No change');
    expect(runOutcomeLabel('schema_change')).toBe('Schema change');
    expect(runOutcomeColor('schema_change')).toBe('warning');
    expect(runOutcomeColor('failed')).toBe('error');
    expect(runOutcomeColor('updated')).toBe('success');
  });
});
