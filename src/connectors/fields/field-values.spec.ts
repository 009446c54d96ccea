import type { SchemaField } from '../entities/connector.entity';
import { settingsProblems, valueProblem } from './field-values';

const FIELDS: SchemaField[] = [
  { key: 'city', label: 'City', type: 'text', required: true },
  { key: 'limit', label: 'Limit', type: 'number' },
  { key: 'mode', label: 'Mode', type: 'select', options: ['simple', { label: 'Advanced', value: 'adv' }] },
  { key: 'station', type: 'select', options_endpoint: '/stations' },
  { key: 'gusts', type: 'bool' },
  {
    key: 'period',
    label: 'Period',
    type: 'group',
    fields: [{ key: 'from', label: 'From', type: 'date' }],
  },
];

const messages = (settings: Record<string, unknown>) =>
  settingsProblems(FIELDS, settings).map((problem) => `${problem.path} ${problem.message}`);

describe('settings checked against schema.fields', () => {
  it('accepts values of each type, lists of them, empty values, API-chosen options and the override switch', () => {
    expect(
      messages({
        city: ['Berlin', 'Paris'],
        limit: 10,
        mode: 'adv',
        station: 42,
        gusts: false,
        period: { from: '2024-01-31' },
        override: true,
      }),
    ).toEqual([]);
    expect(messages({ city: '', limit: null, mode: '', period: null })).toEqual([]);
    expect(messages({ period: { from: '2024-01-31T10:00:00Z' } })).toEqual([]);
  });

  it('names each value of the wrong type, an option not offered and a key no field declares', () => {
    expect(
      messages({
        city: 5,
        limit: 'abc',
        mode: 'expert',
        station: { id: 1 },
        gusts: 'yes',
        period: { from: '2024-02-30', to: '2024-03-01' },
        extra: 'x',
        override: 'yes',
      }),
    ).toEqual([
      'city must be text',
      'limit must be a number',
      'mode must be one of: simple, adv',
      'station must be one value',
      'gusts must be true or false',
      'period.from must be a date (YYYY-MM-DD)',
      'override must be true or false',
      'extra is not a field of this connector',
      'period.to is not a field of this connector',
    ]);
    expect(messages({ limit: [1, 'two'], period: 'last week' })).toEqual([
      'limit must be a number',
      'period must be an object of its fields',
    ]);
  });

  it('checks one value against its field (a default)', () => {
    expect(valueProblem(FIELDS[1], 'abc')).toBe('must be a number');
    expect(valueProblem(FIELDS[2], 'simple')).toBeUndefined();
  });
});
