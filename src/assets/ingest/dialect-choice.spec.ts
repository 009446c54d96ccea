import { dialectChoiceFrom } from './dialect-choice';

describe('dialectChoiceFrom', () => {
  it('reads every field the form may send', () => {
    expect(
      dialectChoiceFrom({
        delimiter: '\t',
        encoding: 'windows-1252',
        decimal_mark: ',',
        thousands_separator: '',
        date_order: 'dmy',
        column_types: 'text, numeric,date',
      }),
    ).toEqual({
      dialect: { delimiter: '\t', encoding: 'windows-1252', decimal: ',', thousands: '', dateOrder: 'dmy' },
      columnTypes: ['text', 'numeric', 'date'],
    });
  });

  it('leaves out what the form does not choose', () => {
    expect(dialectChoiceFrom({ title: 'x' })).toEqual({ dialect: {}, columnTypes: undefined });
  });

  it.each([
    [{ delimiter: ':' }, 'delimiter must be one of: ,, ;, tab, |.'],
    [{ encoding: 'ebcdic' }, 'encoding must be one of: utf-8, utf-16le, utf-16be, windows-1252.'],
    [{ date_order: ['dmy'] }, 'date_order must be one of: ymd, dmy, mdy.'],
    [{ column_types: 'text,jsonb' }, 'column_types must list one type per column'],
  ])('refuses %p naming the field', (body, message) => {
    expect(() => dialectChoiceFrom(body)).toThrow(message);
  });
});
