/**
 * The types a user query may cast to: built-in base types that hold a value and nothing else.
 *
 * Any other type is refused, because a type's name can reach the catalogs: `'x'::regclass` and
 * the other reg* types look names up (an oracle for other tenants' table names), and a catalogue
 * composite such as `pg_sequences` carries a `regtype` field, so `(ROW(…, o::oid, …)::pg_sequences)`
 * turns any oid into a table name. Table row types are refused too, so whether a name exists as a
 * type is never told. The names are as the parser gives them: `integer` is `int4`, `double
 * precision` is `float8`, `timestamp with time zone` is `timestamptz`. An array of an allowed type
 * (`int[]`) is allowed; the `_int4` spelling is not needed and not listed.
 */
const BASE_TYPES: ReadonlySet<string> = new Set([
  'bool',
  'boolean',
  'int2',
  'int4',
  'int8',
  'smallint',
  'integer',
  'int',
  'bigint',
  'numeric',
  'decimal',
  'float4',
  'float8',
  'real',
  'float',
  'money',
  'text',
  'varchar',
  'bpchar',
  'char',
  'character',
  'bytea',
  'date',
  'time',
  'timetz',
  'timestamp',
  'timestamptz',
  'interval',
  'json',
  'jsonb',
  'jsonpath',
  'uuid',
  'inet',
  'cidr',
  'macaddr',
  'macaddr8',
  'bit',
  'varbit',
]);

/** A cast's type as the parser spells it: `['int4']`, `['pg_catalog', 'int4']`, `['public', 'users']`. */
export function isAllowedCastType(names: readonly string[]): boolean {
  const [schema, typeName] = names.length === 2 ? names : [undefined, names[0]];
  if (names.length === 0 || names.length > 2) return false;
  if (schema !== undefined && schema !== 'pg_catalog') return false;
  return BASE_TYPES.has(typeName);
}
