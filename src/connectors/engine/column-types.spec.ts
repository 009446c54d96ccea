import { LosslessNumber } from 'lossless-json';
import { castExpression, csvField, textKind } from './column-types';

describe('column types', () => {
  it('takes only real calendar days as dates', () => {
    expect(textKind('2024-02-29')).toBe('date');
    expect(textKind('2000-02-29')).toBe('date');
    expect(textKind('2023-02-29')).toBe('text');
    expect(textKind('2100-02-29')).toBe('text');
    expect(textKind('2024-04-31')).toBe('text');
    expect(textKind('2024-13-01')).toBe('text');
    expect(textKind('2024-00-10')).toBe('text');
    expect(textKind('2024-01-00')).toBe('text');
    expect(textKind('2024-12-31T23:59:59Z')).toBe('timestamptz');
    expect(textKind('2024-11-31T10:00:00Z')).toBe('text');
    // Year 0 does not exist for Postgres; years before 100 stay text.
    expect(textKind('0000-01-01')).toBe('text');
    expect(textKind('0099-06-15')).toBe('text');
    expect(textKind('0100-06-15')).toBe('date');
  });

  it('writes JSON with exact numbers whether or not a value holds one', () => {
    expect(csvField({ city: 'Oslo', zip: '0150', n: 1.5 }, 'jsonb')).toBe(
      '"{""city"":""Oslo"",""zip"":""0150"",""n"":1.5}"',
    );
    expect(csvField({ id: new LosslessNumber('12345678901234567890'), list: [1] }, 'jsonb')).toBe(
      '"{""id"":12345678901234567890,""list"":[1]}"',
    );
    expect(csvField([{ deep: [new LosslessNumber('0.10000000000000000001')] }], 'jsonb')).toBe(
      '"[{""deep"":[0.10000000000000000001]}]"',
    );
    expect(csvField({ text: 'a\u0000b' }, 'jsonb')).toBe('"{""text"":""ab""}"');
  });

  it('writes timestamps as Postgres reads them in UTC, and text quoted only where CSV needs it', () => {
    expect(csvField('2024-01-01T13:00:00.000Z', 'timestamptz')).toBe('2024-01-01T13:00:00.000Z');
    expect(csvField('2024-01-01 13:00', 'timestamptz')).toBe('2024-01-01T13:00Z');
    expect(csvField('2024-01-01T13:00:00+02:00', 'timestamptz')).toBe('2024-01-01T13:00:00+02:00');
    expect(csvField('2024-01-31', 'timestamptz')).toBe('2024-01-31Z');
    expect(csvField('say "hi", \u0000twice', 'text')).toBe('"say ""hi"", twice"');
    expect(csvField('two\nlines', 'text')).toBe('"two\nlines"');
    expect(csvField(' plain text ', 'text')).toBe(' plain text ');
    expect(csvField('\\.', 'text')).toBe('"\\."');
    expect(csvField(7, 'text')).toBe('7');
    expect(csvField('', 'text')).toBe('""');
    expect(csvField(null, 'text')).toBe('');
  });
});

describe('castExpression', () => {
  it('turns a timestamptz column into its text as fetched, in UTC only where none was kept', () => {
    const utc = `to_char("at" AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;
    expect(castExpression('"at"', 'timestamptz', 'text', '"at#written"')).toBe(
      `COALESCE("at#written", ${utc})`,
    );
    expect(castExpression('"at"', 'timestamptz', 'jsonb', '"at#written"')).toBe(
      `to_jsonb(COALESCE("at#written", ${utc}))`,
    );
    expect(castExpression('"at"', 'timestamptz', 'text')).toBe(utc);
    expect(castExpression('"n"', 'numeric', 'text', '"ignored"')).toBe('"n"::text');
  });
});
