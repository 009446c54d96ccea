import { bareColumnCompletion, tablesInStatement } from './statementColumns';

const SCHEMA = {
  cities: ['name', 'population', 'country_code'],
  countries: ['code', 'name', 'Area km2'],
  'Odd Table': ['weight'],
  unrelated: ['secret_column'],
};

/** The completion at the end of `sql`, as the editor asks while typing. */
const completeAtEnd = (sql: string) => bareColumnCompletion(sql, sql.length, SCHEMA);

describe('the tables a statement reads from', () => {
  it('finds tables after FROM and JOIN, with aliases, schema prefixes and comma lists', () => {
    expect(
      tablesInStatement(
        'SELECT * FROM "Odd Table" o, data.cities c JOIN countries AS k ON k.code = c.country_code WHERE',
      ),
    ).toEqual(['Odd Table', 'cities', 'countries']);
    expect(tablesInStatement('select * from Cities, countries')).toEqual(['cities', 'countries']);
  });

  it('reads the statement around the cursor only, and ignores FROM inside strings and comments', () => {
    const sql = "SELECT * FROM cities; SELECT 'from unrelated' -- from unrelated\n FROM countries WHERE ";
    expect(tablesInStatement(sql)).toEqual(['countries']);
    expect(tablesInStatement(sql, 5)).toEqual(['cities']);
  });
});

describe('completing a bare column name', () => {
  it('offers the columns of the statement’s tables for a bare word, ranked before keywords and tables', () => {
    const completion = completeAtEnd('SELECT * FROM cities WHERE pop');
    expect(completion?.from).toBe('SELECT * FROM cities WHERE '.length);
    expect(completion?.options.map((option) => option.label)).toEqual(['name', 'population', 'country_code']);
    // lang-sql ranks table names at 0 and keywords at -1.
    expect(completion?.options.every((option) => option.boost > 0)).toBe(true);
  });

  it('offers columns of every joined table, each once, quoting names SQL would misread', () => {
    // Without a word typed, only when asked (Ctrl-Space).
    expect(completeAtEnd('SELECT * FROM cities WHERE ')).toBeNull();
    const explicit = bareColumnCompletion(
      'SELECT  FROM cities JOIN countries ON true',
      'SELECT '.length,
      SCHEMA,
      true,
    );
    expect(explicit?.options.map((option) => [option.label, option.detail, option.apply])).toEqual([
      ['name', 'cities', undefined],
      ['population', 'cities', undefined],
      ['country_code', 'cities', undefined],
      ['code', 'countries', undefined],
      ['Area km2', 'countries', '"Area km2"'],
    ]);
  });

  it('offers nothing after table., inside a string, or where a table name goes', () => {
    expect(completeAtEnd('SELECT * FROM cities WHERE cities.po')).toBeNull();
    expect(completeAtEnd("SELECT * FROM cities WHERE name = 'po")).toBeNull();
    expect(completeAtEnd('SELECT * FROM cit')).toBeNull();
    expect(completeAtEnd('SELECT * FROM nowhere WHERE po')).toBeNull();
  });
});
