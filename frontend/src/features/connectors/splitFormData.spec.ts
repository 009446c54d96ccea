import type { SchemaField } from '../../api/connectors';
import { initialFormData, splitFormData } from './splitFormData';

const FIELDS: SchemaField[] = [
  { key: 'city', type: 'text' },
  { key: 'api_key', type: 'text', private: true },
  { key: 'show_dates', type: 'bool', include: false },
  { key: 'from', type: 'date', conditions: { show_dates: true } },
  {
    key: 'auth',
    type: 'group',
    private: true,
    fields: [
      { key: 'user', type: 'text' },
      { key: 'pass', type: 'text' },
    ],
  },
  {
    key: 'range',
    type: 'group',
    fields: [
      { key: 'days', type: 'number', default: 3 },
      { key: 'secret', type: 'text', private: true },
    ],
  },
];

describe('splitFormData', () => {
  it('moves private fields (also inside groups) to auth_data by dotted path and drops include:false', () => {
    const result = splitFormData(FIELDS, {
      city: 'Oslo',
      api_key: 'k-1',
      show_dates: true,
      from: '2024-01-01',
      auth: { user: 'ann', pass: 'pw' },
      range: { days: 5, secret: 's' },
    });
    expect(result).toEqual({
      settings: { city: 'Oslo', from: '2024-01-01', auth: {}, range: { days: 5 } },
      auth_data: { api_key: 'k-1', 'auth.user': 'ann', 'auth.pass': 'pw', 'range.secret': 's' },
    });
  });

  it('leaves out values of fields hidden by their conditions', () => {
    expect(splitFormData(FIELDS, { city: 'Oslo', show_dates: false, from: '2024-01-01' }).settings).toEqual({
      city: 'Oslo',
    });
  });

  it('keeps keys the schema does not know (Advanced editor) and skips empty secrets', () => {
    expect(splitFormData(FIELDS, { extra: { a: 1 }, api_key: '' })).toEqual({
      settings: { extra: { a: 1 } },
      auth_data: {},
    });
  });

  it('does not change the form data it was given', () => {
    const data = { api_key: 'k', city: 'x' };
    splitFormData(FIELDS, data);
    expect(data).toEqual({ api_key: 'k', city: 'x' });
  });
});

describe('initialFormData', () => {
  it('puts defaults under the saved settings', () => {
    expect(initialFormData(FIELDS, { range: { secret: 'x' }, city: 'Rome' })).toEqual({
      range: { days: 3, secret: 'x' },
      city: 'Rome',
    });
  });
});
