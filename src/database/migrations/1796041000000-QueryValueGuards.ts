import { MigrationInterface, QueryRunner } from 'typeorm';

/** The largest value a guarded function builds for a user query: 16 MB. */
const VALUE_CAP_BYTES = 16 * 1024 * 1024;

/**
 * Guarded versions of the functions that make a value far larger than their arguments from one
 * call (`repeat('x', 900000000)`), in a schema user queries search before pg_catalog (see the
 * query runner's search_path). Each has exactly the signature of the built-in it stands for, so
 * it is the one PostgreSQL picks, refuses a result past the cap before anything is allocated, and
 * otherwise calls the built-in. The query check refuses calls that name pg_catalog to get past them.
 */
export class QueryValueGuards1796041000000 implements MigrationInterface {
  name = 'QueryValueGuards1796041000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE SCHEMA query_guard`);
    await queryRunner.query(`GRANT USAGE ON SCHEMA query_guard TO PUBLIC`);
    // Volatile, so the planner never calls it ahead of time while folding a guarded call of
    // constants: the CASE around it decides at run time whether it runs at all.
    await queryRunner.query(`
      CREATE FUNCTION query_guard.too_large() RETURNS text LANGUAGE plpgsql VOLATILE PARALLEL SAFE AS $$
      BEGIN
        RAISE EXCEPTION 'a value built by a query may be at most 16 MB'
          USING ERRCODE = 'program_limit_exceeded';
      END $$`);
    const guarded = (signature: string, bytes: string, call: string) =>
      queryRunner.query(`
        CREATE FUNCTION query_guard.${signature} RETURNS text
          LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $$
          SELECT CASE WHEN ${bytes} > ${VALUE_CAP_BYTES} THEN query_guard.too_large() ELSE ${call} END
        $$`);
    // Bytes of a padded text: the text, and at most the widest character of the fill per place.
    const padded = (fill: string) =>
      `pg_catalog.octet_length($1)::bigint + GREATEST($2, 0)::bigint * ` +
      `pg_catalog.ceil(pg_catalog.octet_length(${fill})::numeric / GREATEST(pg_catalog.length(${fill}), 1))`;
    await guarded(
      'repeat(text, integer)',
      'pg_catalog.octet_length($1)::bigint * GREATEST($2, 0)',
      'pg_catalog.repeat($1, $2)',
    );
    await guarded('lpad(text, integer)', padded(`' '`), 'pg_catalog.lpad($1, $2)');
    await guarded('rpad(text, integer)', padded(`' '`), 'pg_catalog.rpad($1, $2)');
    await guarded('lpad(text, integer, text)', padded('$3'), 'pg_catalog.lpad($1, $2, $3)');
    await guarded('rpad(text, integer, text)', padded('$3'), 'pg_catalog.rpad($1, $2, $3)');
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP SCHEMA query_guard CASCADE`);
  }
}
