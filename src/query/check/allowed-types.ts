/**
 * The types a query may name (casts, `type 'literal'`, array casts): built-in base types whose
 * input reads only the literal itself. Everything else is refused, because a type is a door to
 * the catalogs: the reg* types look names up (`'data.ds_x'::regclass` says whether another
 * user's table exists), every table and catalog view has a row type of its name whose fields
 * can be reg* types (`ROW(…, oid, …)::pg_sequences` printed the names of other users' tables),
 * and a domain or enum of the app's would reveal its definition.
 *
 * Names are as PostgreSQL's parser leaves them: SQL-standard spellings (`integer`, `double
 * precision`, `timestamp with time zone`) arrive as their internal names under `pg_catalog`.
 */
export const ALLOWED_TYPES = new Set([
  'bool',
  'boolean',
  'int2',
  'int4',
  'int8',
  'int',
  'integer',
  'smallint',
  'bigint',
  'float4',
  'float8',
  'real',
  'numeric',
  'decimal',
  'text',
  'varchar',
  'bpchar',
  'char',
  'character',
  'date',
  'time',
  'timetz',
  'timestamp',
  'timestamptz',
  'interval',
  'json',
  'jsonb',
  'uuid',
  'bytea',
  'bit',
  'varbit',
  'inet',
  'cidr',
  'macaddr',
  'money',
  'tsvector',
  'tsquery',
  'point',
  'int4range',
  'int8range',
  'numrange',
  'daterange',
  'tsrange',
  'tstzrange',
]);

/** The refusal for a type outside the list, or undefined when the type may be named. */
export function refusedType(names: readonly string[], hasModifierOfType: boolean): string | undefined {
  const name = names.at(-1) ?? '';
  const schemaAllowed = names.length === 1 || (names.length === 2 && names[0] === 'pg_catalog');
  if (!schemaAllowed || !ALLOWED_TYPES.has(name) || hasModifierOfType)
    return `a cast to ${names.join('.')} is not allowed in a query: only built-in types such as integer, numeric, text, date, timestamptz or jsonb`;
  return undefined;
}
