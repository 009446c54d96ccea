import { toEntitySet } from './odata-entity-set';
import { filterSql } from './odata-filter-sql';
import { readQueryOptions } from './odata-query-options';

const set = toEntitySet({
  kind: 'asset',
  id: '0f8fad5b-d9cb-469f-a165-70867728950e',
  title: 'Sales',
  readableName: 'sales',
  tableName: 'ds_sales',
  hasRowId: true,
  columns: [
    { name: 'id', label: 'ID', pgType: 'int4' },
    { name: 'name', label: 'Name', pgType: 'text' },
    { name: 'day', label: 'Day', pgType: 'date' },
    { name: 'at', label: 'At', pgType: 'timestamptz' },
    { name: 'local', label: 'Local', pgType: 'timestamp' },
    { name: 'doc', label: 'Doc', pgType: 'jsonb' },
  ],
});

/** How the translated SQL reads the `n`th filter value. */
const v = (n: number) => `current_setting('odata.value_${n}')`;

function translate(filter: string) {
  const values: string[] = [];
  const { sql, rangeColumns } = filterSql(readQueryOptions({ $filter: filter }).filter!, set, values);
  return { sql, values, rangeColumns };
}

describe('filterSql', () => {
  it('reads every value from its setting, cast to the column type, never as SQL text', () => {
    expect(translate("name eq 'x''; DROP TABLE users; --' and id gt 5")).toEqual({
      sql: `(t."name" = ${v(1)}::text AND t."id" > ${v(2)}::int8)`,
      values: ["x'; DROP TABLE users; --", '5'],
      rangeColumns: [],
    });
  });

  it('keeps ge/lt bounds on a timestamp column index-friendly and names the column for an index', () => {
    expect(translate('at ge 2024-01-01T00:00:00Z and at lt 2024-02-01T00:00:00Z')).toEqual({
      sql: `(t."at" >= ${v(1)}::timestamptz AND t."at" < ${v(2)}::timestamptz)`,
      values: ['2024-01-01T00:00:00Z', '2024-02-01T00:00:00Z'],
      rangeColumns: ['at'],
    });
    expect(translate('local lt 2024-02-01').sql).toBe(
      `t."local" < (${v(1)}::timestamptz AT TIME ZONE 'UTC')`,
    );
  });

  it('compares a date column with a point in time by rounding the bound, not by casting the column', () => {
    const { sql, rangeColumns } = translate('day ge 2024-01-01T06:00:00Z and day le 2024-01-31T06:00:00Z');
    expect(sql).toBe(
      `(t."day" >= (((${v(1)}::timestamptz AT TIME ZONE 'UTC') + interval '1 day' - interval '1 microsecond')::date) AND t."day" <= ((${v(2)}::timestamptz AT TIME ZONE 'UTC')::date))`,
    );
    expect(rangeColumns).toEqual(['day']);
  });

  it('keeps OData null semantics: ne and not are true for a null value', () => {
    expect(translate("name ne 'a'").sql).toBe(`t."name" IS DISTINCT FROM ${v(1)}::text`);
    expect(translate("not (name eq 'a')").sql).toBe(`(((t."name" = ${v(1)}::text)) IS NOT TRUE)`);
    expect(translate('name eq null').sql).toBe(`t."name" IS NULL`);
    expect(translate('id gt null').sql).toBe('FALSE');
  });

  it('escapes LIKE wildcards in contains, startswith and endswith', () => {
    expect(translate("contains(name,'50%_\\')")).toMatchObject({
      sql: `t."name" LIKE ${v(1)}::text`,
      values: ['%50\\%\\_\\\\%'],
    });
    expect(translate("startswith(doc,'{')")).toMatchObject({
      sql: `t."doc"::text LIKE ${v(1)}::text`,
      values: ['{%'],
    });
  });

  it('refuses properties the entity set lacks and the row-number key of keyless tables', () => {
    expect(() => translate('"x" eq 1')).toThrow();
    expect(() => translate('nope eq 1')).toThrow(`${set.name} has no property nope`);
    const keyless = toEntitySet({ ...set.source, hasRowId: false });
    expect(() => filterSql(readQueryOptions({ $filter: '_row_number eq 1' }).filter!, keyless, [])).toThrow(
      "_row_number is the row's position and cannot be filtered",
    );
  });
});
