import { checkQuery } from './query-check';
import { QueryRefusal } from './query-refusal';
import { QueryTable, substituteTables } from './table-substitution';

const HELD = new Map<string, QueryTable>([
  ['sales', { name: 'sales', tableName: 'ds_1', columns: ['day', 'amount'] }],
  ['stores', { name: 'stores', tableName: 'ds_2', columns: ['id', 'city'] }],
]);

async function run(sql: string) {
  return substituteTables(sql, (await checkQuery(sql)).tables, HELD);
}

describe('substituteTables: readable names become the held tables’ visible columns', () => {
  it('replaces each name where it stands and keeps the name for qualified columns', async () => {
    const { sql, tables } = await run('SELECT sales.amount, s2.city FROM sales JOIN stores s2 ON true');
    expect(sql).toBe(
      'SELECT sales.amount, s2.city FROM (SELECT "day", "amount" FROM data."ds_1") AS "sales" JOIN (SELECT "id", "city" FROM data."ds_2") s2 ON true',
    );
    expect(tables.map((table) => table.name)).toEqual(['sales', 'stores']);
  });

  it('leaves CTE names alone and handles text before and after in any script', async () => {
    const { sql } = await run("WITH s AS (SELECT * FROM sales) SELECT 'ü', * FROM s -- ä");
    expect(sql).toBe(
      `WITH s AS (SELECT * FROM (SELECT "day", "amount" FROM data."ds_1") AS "sales") SELECT 'ü', * FROM s -- ä`,
    );
  });

  it('fails for a name not held exactly as PostgreSQL does for a missing one, with its position', async () => {
    const error = await run('SELECT * FROM users').catch((caught: QueryRefusal) => caught);
    expect(error).toBeInstanceOf(QueryRefusal);
    expect((error as QueryRefusal).message).toBe('relation "users" does not exist');
    expect((error as QueryRefusal).position).toBe(15);
    const quoted = await run('SELECT * FROM "Sales"').catch((caught: QueryRefusal) => caught);
    expect((quoted as QueryRefusal).message).toBe('relation "Sales" does not exist');
  });

  it('accepts a quoted name that is the held one', async () => {
    expect((await run('SELECT * FROM "sales"')).sql).toBe(
      'SELECT * FROM (SELECT "day", "amount" FROM data."ds_1") AS "sales"',
    );
  });

  it('asks for SELECT * instead of TABLE', async () => {
    const error = await run('TABLE sales').catch((caught: QueryRefusal) => caught);
    expect((error as QueryRefusal).message).toBe('Write SELECT * FROM sales instead of TABLE sales');
  });

  it('maps a position in the statement run back to the text written', async () => {
    const written = 'SELECT nope FROM sales WHERE x';
    const { sql, originalPosition } = await run(written);
    expect(originalPosition(sql.indexOf('nope') + 1)).toBe(written.indexOf('nope') + 1);
    expect(originalPosition(sql.indexOf('WHERE x') + 7)).toBe(written.indexOf('WHERE x') + 7);
    expect(originalPosition(sql.indexOf('"day"') + 1)).toBe(written.indexOf('sales') + 1);
  });
});
