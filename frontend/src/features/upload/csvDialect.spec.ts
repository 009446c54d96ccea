import { CsvDialect, dialectFields } from './csvDialect';

const GERMAN: CsvDialect = {
  delimiter: ';',
  encoding: 'windows-1252',
  decimal: ',',
  thousands: '.',
  dateOrder: 'dmy',
};

describe('dialectFields', () => {
  it('sends the dialect, and no column types while the user kept the previewed ones', () => {
    expect(dialectFields(GERMAN, ['text', 'numeric'], ['text', 'numeric'])).toEqual({
      delimiter: ';',
      encoding: 'windows-1252',
      decimal_mark: ',',
      thousands_separator: '.',
      date_order: 'dmy',
    });
  });

  it('sends every column type once the user changed one', () => {
    expect(dialectFields(GERMAN, ['text', 'text'], ['text', 'numeric']).column_types).toBe('text,text');
  });
});
