import { MigrationInterface, QueryRunner } from 'typeorm';

/** The cap of QueryValueGuards1796041000000: 16 MB for any value a user query builds. */
const VALUE_CAP_BYTES = 16 * 1024 * 1024;

/** The words of QueryValueGuards1796041000000 (a 400: program_limit_exceeded keeps its words). */
const TOO_LARGE = 'a value built by a query may be at most 16 MB';

/** Bytes of a value as it stands in memory: its text or bytes, otherwise its datum. */
const bytesOf = (type: string, argument: string) =>
  ['text', 'bytea'].includes(type)
    ? `pg_catalog.octet_length(${argument})::bigint`
    : `pg_catalog.pg_column_size(${argument})::bigint`;

/**
 * `||` for every pair of types pg_catalog concatenates that a user query can make: left, right,
 * result, and the argument of that result's type that the refusal takes its type from.
 */
const CONCATENATIONS: Array<[string, string, string, string]> = [
  ['text', 'text', 'text', '$1'],
  ['text', 'anynonarray', 'text', '$1'],
  ['anynonarray', 'text', 'text', '$2'],
  ['bytea', 'bytea', 'bytea', '$1'],
  ['varbit', 'varbit', 'varbit', '$1'],
  ['jsonb', 'jsonb', 'jsonb', '$1'],
  ['anycompatiblearray', 'anycompatiblearray', 'anycompatiblearray', '$1'],
  ['anycompatiblearray', 'anycompatible', 'anycompatiblearray', '$1'],
  ['anycompatible', 'anycompatiblearray', 'anycompatiblearray', '$2'],
];

/** Functions that make a value as large as two of their arguments, or one per array element. */
const FUNCTIONS: Array<{ signature: string; call: string; returns: string; sample: string; bytes: string }> =
  [
    {
      signature: 'array_cat(anycompatiblearray, anycompatiblearray)',
      call: 'pg_catalog.array_cat($1, $2)',
      returns: 'anycompatiblearray',
      sample: '$1',
      bytes: `${bytesOf('array', '$1')} + ${bytesOf('array', '$2')}`,
    },
    {
      signature: 'array_append(anycompatiblearray, anycompatible)',
      call: 'pg_catalog.array_append($1, $2)',
      returns: 'anycompatiblearray',
      sample: '$1',
      bytes: `${bytesOf('array', '$1')} + ${bytesOf('element', '$2')}`,
    },
    {
      signature: 'array_prepend(anycompatible, anycompatiblearray)',
      call: 'pg_catalog.array_prepend($1, $2)',
      returns: 'anycompatiblearray',
      sample: '$2',
      bytes: `${bytesOf('element', '$1')} + ${bytesOf('array', '$2')}`,
    },
    ...(['jsonb_set', 'jsonb_insert'] as const).map((name) => ({
      signature: `${name}(jsonb, text[], jsonb, boolean DEFAULT ${name === 'jsonb_set'})`,
      call: `pg_catalog.${name}($1, $2, $3, $4)`,
      returns: 'jsonb',
      sample: '$1',
      bytes: `${bytesOf('jsonb', '$1')} + ${bytesOf('jsonb', '$3')}`,
    })),
    // Each element becomes its text, and a separator; with a null text every NULL element becomes it.
    {
      signature: 'array_to_string(anyarray, text)',
      call: 'pg_catalog.array_to_string($1, $2)',
      returns: 'text',
      sample: '$2',
      bytes: `${bytesOf('array', '$1')} * 2 + pg_catalog.cardinality($1)::bigint * ${bytesOf('text', '$2')}`,
    },
    {
      signature: 'array_to_string(anyarray, text, text)',
      call: 'pg_catalog.array_to_string($1, $2, $3)',
      returns: 'text',
      sample: '$2',
      bytes:
        `${bytesOf('array', '$1')} * 2 + pg_catalog.cardinality($1)::bigint * ` +
        `(${bytesOf('text', '$2')} + coalesce(${bytesOf('text', '$3')}, 0))`,
    },
  ];

/**
 * Guards for the ways a user query composes values, beside QueryValueGuards' for the functions
 * that make one large value from a small one. Without them a value doubles with every level of
 * WITH or recursion (`s || s`, `array_cat(a, a)`, `jsonb_set(j, '{k}', j)`) up to PostgreSQL's
 * 1 GB, in every backend running user SQL. Each guard has the signature of the built-in it stands
 * for and lives in query_guard, which user queries search before pg_catalog, so it is the one
 * PostgreSQL picks, also for `||` (an operator of the same argument types earlier in the search
 * path wins). It adds up its arguments' bytes, refuses past 16 MB before anything is allocated,
 * and otherwise calls the built-in.
 *
 * Plain SQL functions, STABLE and not STRICT, so the planner inlines them into the query: the
 * check costs an addition and a comparison per call rather than a function call. The refusal is
 * STABLE too, so the planner never runs it ahead of time while simplifying a CASE whose
 * condition is not yet known. Functions taking VARIADIC "any" (concat, format, json_build_object
 * …) cannot be written in SQL: the query check wraps their calls in query_guard.capped.
 */
export class QueryCompositionGuards1796100000002 implements MigrationInterface {
  name = 'QueryCompositionGuards1796100000002';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE FUNCTION query_guard.refused(value anyelement) RETURNS anyelement
        LANGUAGE plpgsql STABLE PARALLEL SAFE AS $$
        BEGIN
          RAISE EXCEPTION '${TOO_LARGE}' USING ERRCODE = 'program_limit_exceeded';
        END $$`);
    const guarded = (signature: string, returns: string, sample: string, bytes: string, call: string) =>
      queryRunner.query(`
        CREATE FUNCTION query_guard.${signature} RETURNS ${returns}
          LANGUAGE sql STABLE PARALLEL SAFE AS $$
          SELECT CASE WHEN ${bytes} > ${VALUE_CAP_BYTES} THEN query_guard.refused(${sample}) ELSE ${call} END
        $$`);
    for (const [left, right, returns, sample] of CONCATENATIONS) {
      const name = `concatenated_${left}_${right}`;
      await guarded(
        `${name}(${left}, ${right})`,
        returns,
        sample,
        `${bytesOf(left, '$1')} + ${bytesOf(right, '$2')}`,
        '$1 OPERATOR(pg_catalog.||) $2',
      );
      await queryRunner.query(
        `CREATE OPERATOR query_guard.|| (LEFTARG = ${left}, RIGHTARG = ${right}, FUNCTION = query_guard.${name})`,
      );
    }
    for (const { signature, call, returns, sample, bytes } of FUNCTIONS)
      await guarded(signature, returns, sample, bytes, call);
    // The cap the query check wraps around calls of VARIADIC "any" builders (value-builders.ts):
    // after the call, since nothing can be added up before it. PL/pgSQL, so the call runs once.
    for (const [type, bytes] of [
      ['anyelement', bytesOf('any', 'value')],
      ['text', bytesOf('text', 'value')],
    ])
      await queryRunner.query(`
        CREATE FUNCTION query_guard.capped(value ${type}) RETURNS ${type}
          LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE AS $$
          BEGIN
            IF ${bytes} > ${VALUE_CAP_BYTES} THEN
              RAISE EXCEPTION '${TOO_LARGE}' USING ERRCODE = 'program_limit_exceeded';
            END IF;
            RETURN value;
          END $$`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    for (const [left, right] of CONCATENATIONS)
      await queryRunner.query(`DROP OPERATOR query_guard.|| (${left}, ${right})`);
    await queryRunner.query(`
      DO $$
      DECLARE guard regprocedure;
      BEGIN
        FOR guard IN SELECT p.oid FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
          WHERE n.nspname = 'query_guard' AND (p.proname LIKE 'concatenated\\_%' OR p.proname IN
            ('refused', 'capped', 'array_cat', 'array_append', 'array_prepend', 'jsonb_set', 'jsonb_insert', 'array_to_string'))
        LOOP
          EXECUTE 'DROP FUNCTION ' || guard;
        END LOOP;
      END $$`);
  }
}
