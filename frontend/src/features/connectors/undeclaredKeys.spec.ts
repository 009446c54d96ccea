import type { SchemaField } from '../../api/connectors';
import { undeclaredKeys, undeclaredKeysNote } from './undeclaredKeys';

const fields: SchemaField[] = [
  { key: 'station', type: 'text' },
  { key: 'period', type: 'group', fields: [{ key: 'from', type: 'date' }] },
];

describe('undeclaredKeys', () => {
  it('names keys no field declares, inside groups too, but not the declared ones or override', () => {
    expect(
      undeclaredKeys(fields, {
        station: 'BER',
        period: { from: '2026-01-01', until: 'x' },
        extra: 1,
        override: true,
      }),
    ).toEqual(['period.until', 'extra']);
  });

  it('says nothing when every key is declared', () => {
    expect(undeclaredKeys(fields, { station: 'BER', period: { from: '2026-01-01' } })).toEqual([]);
    expect(undeclaredKeysNote([])).toBeNull();
    expect(undeclaredKeysNote(['extra'])).toBe(
      'Not fields of this connector, so saving refuses them: extra.',
    );
  });
});
