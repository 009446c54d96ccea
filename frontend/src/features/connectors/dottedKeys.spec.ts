import { fromAdvancedJson, fromDottedKeys, INVALID_JSON, toAdvancedJson, toDottedKeys } from './dottedKeys';

describe('dotted keys <-> nested JSON (Advanced toggle)', () => {
  const nested = {
    city: 'Oslo',
    range: { from: '2024-01-01', to: { day: 2 } },
    list: [1, 2],
    empty: {},
    none: null,
  };
  const flat = {
    city: 'Oslo',
    'range.from': '2024-01-01',
    'range.to.day': 2,
    list: [1, 2],
    empty: {},
    none: null,
  };

  it('flattens nested settings into dotted keys, keeping arrays as values', () => {
    expect(toDottedKeys(nested)).toEqual(flat);
  });

  it('nests dotted keys back', () => {
    expect(fromDottedKeys(flat)).toEqual(nested);
  });

  it('round-trips through the editor text', () => {
    const text = toAdvancedJson(flat);
    expect(JSON.parse(text)).toEqual(nested);
    expect(fromAdvancedJson(text)).toEqual({ ok: true, flat, nested });
  });

  it.each(['{', '', '[1, 2]', '"text"', 'null', "{'single': 1}"])(
    'refuses %j with the exact text Invalid JSON format',
    (text) => {
      expect(fromAdvancedJson(text)).toEqual({ ok: false, error: 'Invalid JSON format' });
      expect(INVALID_JSON).toBe('Invalid JSON format');
    },
  );
});
