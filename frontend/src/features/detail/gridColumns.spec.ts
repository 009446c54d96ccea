import {
  cellText,
  cellValue,
  gridColumns,
  gridRows,
  gridType,
  isNamingNumber,
  sortParam,
} from './gridColumns';

describe('gridType', () => {
  it('maps dataset column types onto DataGrid column types', () => {
    expect(gridType('integer')).toBe('number');
    expect(gridType('numeric')).toBe('number');
    expect(gridType('boolean')).toBe('boolean');
    expect(gridType('date')).toBe('date');
    expect(gridType('timestamptz')).toBe('dateTime');
    expect(gridType('timestamp')).toBe('wallClock');
    expect(gridType('text')).toBe('string');
    expect(gridType('jsonb')).toBe('string');
    expect(gridType(undefined)).toBe('string');
  });
});

describe('gridColumns', () => {
  it('uses the uploaded header as the column title and accepts plain names', () => {
    const [typed, plain] = gridColumns([
      { name: 'unit_price', label: 'Unit Price', type: 'numeric' },
      'city',
    ]);
    expect(typed).toMatchObject({ field: 'unit_price', headerName: 'Unit Price', type: 'number' });
    expect(plain).toMatchObject({ field: 'city', headerName: 'city', type: 'string' });
  });
});

describe('isNamingNumber', () => {
  it('keeps years, ids and codes free of digit grouping but still groups counts', () => {
    expect(isNamingNumber('discovery_year', 'integer')).toBe(true);
    expect(isNamingNumber('Year', 'integer')).toBe(true);
    expect(isNamingNumber('customer_id', 'integer')).toBe(true);
    expect(isNamingNumber('zip_code', 'integer')).toBe(true);
    expect(isNamingNumber('volume', 'integer')).toBe(false);
    expect(isNamingNumber('paid', 'integer')).toBe(false);
    expect(isNamingNumber('discovery_year', 'text')).toBe(false);
  });
});

describe('cellValue', () => {
  it('turns numeric strings into numbers and dates into Date objects', () => {
    expect(cellValue('12.5', 'number')).toBe(12.5);
    expect(cellValue('2024-03-01', 'date')).toBeInstanceOf(Date);
    expect(cellValue('not a date', 'dateTime')).toBeNull();
  });

  it('keeps numbers too wide for a JS number as their exact text', () => {
    expect(cellValue('9007199254740993', 'number')).toBe('9007199254740993');
    expect(cellValue('12345678901234567.891', 'number')).toBe('12345678901234567.891');
    expect(cellValue('75.0000000000000000', 'number')).toBe(75);
    expect(cellValue('not a number', 'number')).toBeNull();
  });

  it('keeps a date-time without offset as the digits sent, whatever the browser zone', () => {
    expect(cellValue('2025-11-17T05:11:07.758', 'wallClock')).toBe('2025-11-17 05:11:07.758');
  });

  it('keeps an empty string apart from null', () => {
    expect(cellValue('', 'string')).toBe('');
    expect(cellValue(null, 'string')).toBeNull();
  });

  it('shows nested values as JSON text', () => {
    expect(cellValue({ a: 1 }, 'string')).toBe('{"a":1}');
  });
});

describe('gridRows', () => {
  it('gives every row an id unique across pages', () => {
    const columns = gridColumns(['name']);
    const rows = gridRows([{ name: 'a' }, { name: 'b' }], columns, 100);
    expect(rows.map((row) => row.__rowId)).toEqual([100, 101]);
  });
});

describe('sortParam', () => {
  it('sends the column for ascending and -column for descending', () => {
    expect(sortParam([{ field: 'price', sort: 'asc' }])).toBe('price');
    expect(sortParam([{ field: 'price', sort: 'desc' }])).toBe('-price');
    expect(sortParam([])).toBeUndefined();
  });
});

describe('cellText', () => {
  it('shows numbers in full, never rounded to three decimals', () => {
    expect(cellText(0.19768, { type: 'number', plainDigits: false })).toMatch(/^0\D19768$/);
    expect(cellText(1234567.125, { type: 'number', plainDigits: false })).toMatch(/^1\D234\D567\D125$/);
    expect(cellText(2013, { type: 'number', plainDigits: true })).toBe('2013');
    expect(cellText('9007199254740993', { type: 'number', plainDigits: false })).toBe('9007199254740993');
    expect(cellText(null, { type: 'number', plainDigits: false })).toBe('');
  });

  it('shows dates as ISO dates and leaves other types to the grid', () => {
    expect(cellText(new Date('2024-01-01'), { type: 'date', plainDigits: false })).toBe('2024-01-01');
    expect(cellText('text', { type: 'string', plainDigits: false })).toBeUndefined();
  });
});

describe('gridColumns widths', () => {
  it('keeps date and date-time columns wide enough to show them whole on a phone', () => {
    const [date, moment] = gridColumns([
      { name: 'day', type: 'date' },
      { name: 'at', type: 'timestamptz' },
    ]);
    expect(date.minWidth).toBeGreaterThanOrEqual(130);
    expect(moment.minWidth).toBeGreaterThanOrEqual(200);
  });
});
