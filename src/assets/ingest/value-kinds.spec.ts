import {
  columnTypeFor,
  KIND_BOOLEAN,
  KIND_DATE,
  KIND_INTEGER,
  KIND_NUMERIC,
  KIND_TIMESTAMP,
  KIND_TIMESTAMPTZ,
  valueKinds,
} from './value-kinds';

function kindsOf(text: string): number {
  const bytes = Buffer.from(text);
  return valueKinds(bytes, 0, bytes.length);
}

describe('valueKinds', () => {
  it.each(['0', '42', '-7', '+15', '123456789012345678', ' 12 '])(
    'reads %p as an integer (and numeric)',
    (text) => {
      expect(kindsOf(text)).toBe(KIND_INTEGER | KIND_NUMERIC);
    },
  );

  it.each(['3.14', '-0.5', '.5', '5.', '1e5', '2.5E-3', '1234567890123456789'])(
    'reads %p as numeric only',
    (text) => {
      expect(kindsOf(text)).toBe(KIND_NUMERIC);
    },
  );

  it.each(['007', '00.5', '0123'])('keeps %p (leading zeros) as text so nothing is lost', (text) => {
    expect(kindsOf(text)).toBe(0);
  });

  it.each(['t', 'F', 'y', 'N'])('leaves the single letter %p text: a code, not a boolean', (text) => {
    expect(kindsOf(text)).toBe(0);
  });

  it.each(['true', 'FALSE', 'Yes', 'no'])('reads %p as boolean', (text) => {
    expect(kindsOf(text)).toBe(KIND_BOOLEAN);
  });

  it('reads an ISO date as date (which also fits either kind of timestamp)', () => {
    expect(kindsOf('2024-02-29')).toBe(KIND_DATE | KIND_TIMESTAMP | KIND_TIMESTAMPTZ);
  });

  it.each(['2024-02-29T10:15', '2024-02-29 10:15:30', '2025-11-17 05:11:07.758'])(
    'reads %p (no offset) as a timestamp without zone',
    (text) => {
      expect(kindsOf(text)).toBe(KIND_TIMESTAMP);
    },
  );

  it.each(['2024-02-29T10:15:30.123Z', '2024-02-29T10:15:30+02:00', '2024-02-29 10:15:30-0530'])(
    'reads %p (with an offset) as a timestamp with zone',
    (text) => {
      expect(kindsOf(text)).toBe(KIND_TIMESTAMPTZ);
    },
  );

  it('leaves a column mixing naive and offset timestamps no timestamp kind', () => {
    expect(kindsOf('2024-02-29 10:15:30') & kindsOf('2024-02-29T10:15:30Z')).toBe(0);
  });

  it.each([
    'abc',
    '1,5',
    '12abc',
    '-',
    '.',
    '2024-13-01',
    '2024-01-01T25:00',
    '01/02/2024',
    'NaN',
    '   ',
    '1e',
    '--1',
  ])('reads %p as text', (text) => {
    expect(kindsOf(text)).toBe(0);
  });
});

describe('columnTypeFor', () => {
  it('picks the most specific type left', () => {
    expect(columnTypeFor(KIND_INTEGER | KIND_NUMERIC, true)).toBe('integer');
    expect(columnTypeFor(KIND_NUMERIC, true)).toBe('numeric');
    expect(columnTypeFor(KIND_BOOLEAN, true)).toBe('boolean');
    expect(columnTypeFor(KIND_DATE | KIND_TIMESTAMP | KIND_TIMESTAMPTZ, true)).toBe('date');
    expect(columnTypeFor(KIND_TIMESTAMP, true)).toBe('timestamp');
    expect(columnTypeFor(KIND_TIMESTAMPTZ, true)).toBe('timestamptz');
    expect(columnTypeFor(0, true)).toBe('text');
  });

  it('makes a column with only empty values text', () => {
    expect(columnTypeFor(KIND_INTEGER | KIND_NUMERIC, false)).toBe('text');
  });
});
