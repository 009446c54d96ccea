import {
  completionSchema,
  errorLocation,
  errorText,
  queryPagePath,
  resultSummary,
  sqlName,
  tableQuery,
  truncationNotice,
} from './queryRules';

describe('query workspace rules', () => {
  it('opens a held table with its first 100 rows, quoting only names SQL would misread', () => {
    expect(tableQuery('sales_2024')).toBe('SELECT * FROM sales_2024 LIMIT 100');
    expect(sqlName('2024_sales')).toBe('"2024_sales"');
    expect(sqlName('Odd"Name')).toBe('"Odd""Name"');
    expect(queryPagePath('sales 2024')).toBe('/query?table=sales%202024');
  });

  it('turns the caller’s tables into the editor’s completion schema', () => {
    expect(
      completionSchema([
        { name: 'sales', columns: [{ name: 'city' }, { name: 'amount' }] },
        { name: 'empty', columns: [] },
      ]),
    ).toEqual({ sales: ['city', 'amount'], empty: [] });
  });

  it('summarises rows and time, and says when the screen’s limit cut the result', () => {
    expect(resultSummary(1, 12)).toBe('1 row in 12 ms');
    expect(resultSummary(12345, 2500)).toBe('12,345 rows in 2.5 s');
    expect(truncationNotice(10000)).toBe(
      'Showing the first 10,000 rows. Download the whole result as CSV, JSON, Parquet or Excel.',
    );
  });

  it('places PostgreSQL’s 1-based error position on a line and column', () => {
    const sql = 'SELECT a,\n  nope\nFROM t';
    expect(errorLocation(sql, 1)).toEqual({ line: 1, column: 1 });
    expect(errorLocation(sql, 13)).toEqual({ line: 2, column: 3 });
    expect(errorLocation('SELECT ä, x', 11)).toEqual({ line: 1, column: 11 });
    expect(errorText(sql, 'column "nope" does not exist', 13)).toBe(
      'column "nope" does not exist (line 2, column 3)',
    );
    expect(errorText(sql, 'The query failed')).toBe('The query failed');
  });
});
