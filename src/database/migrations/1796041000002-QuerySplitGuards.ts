import { MigrationInterface, QueryRunner } from 'typeorm';

/** The cap of QueryValueGuards1796041000000: 16 MB. */
const VALUE_CAP_BYTES = 16 * 1024 * 1024;
/**
 * What one element of a split costs while the array is built (its own allocation, a Datum and a
 * flag beside the text): a 16 MB text split into characters would take half a gigabyte.
 */
const ELEMENT_BYTES = 40;

const bytes = (value: string) => `pg_catalog.octet_length(${value})::bigint`;

/**
 * Guarded string_to_array and regexp_split_to_array (see QueryValueGuards1796041000000): a split
 * into many small elements takes far more memory than its text. The element count is bounded from
 * the lengths (let through at no cost when that is small enough) or else counted, and a split
 * whose building would pass the cap is refused before it starts.
 */
export class QuerySplitGuards1796041000002 implements MigrationInterface {
  name = 'QuerySplitGuards1796041000002';

  public async up(queryRunner: QueryRunner): Promise<void> {
    const cost = (elements: string) => `${bytes('$1')} + (${elements}) * ${ELEMENT_BYTES}`;
    // A NULL delimiter splits into characters, an empty one leaves the text whole.
    const bound = `CASE WHEN $2 IS NULL THEN pg_catalog.length($1)::bigint WHEN $2 = '' THEN 1
                        ELSE ${bytes('$1')} / ${bytes('$2')} + 1 END`;
    const counted = `CASE WHEN $2 IS NULL THEN pg_catalog.length($1)::bigint WHEN $2 = '' THEN 1
                          ELSE (${bytes('$1')} - ${bytes("pg_catalog.replace($1, $2, '')")}) / ${bytes('$2')} + 1 END`;
    // Not strict, like the built-ins: NULL text answers NULL, a NULL delimiter means characters.
    for (const [signature, call] of [
      ['text, text', 'pg_catalog.string_to_array($1, $2)'],
      ['text, text, text', 'pg_catalog.string_to_array($1, $2, $3)'],
    ])
      await queryRunner.query(`
        CREATE FUNCTION query_guard.string_to_array(${signature}) RETURNS text[]
          LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
          SELECT CASE
            WHEN $1 IS NULL OR ${cost(bound)} <= ${VALUE_CAP_BYTES} THEN ${call}
            WHEN ${cost(counted)} > ${VALUE_CAP_BYTES} THEN query_guard.too_large()::text[]
            ELSE ${call}
          END
        $$`);
    for (const [signature, call, flags] of [
      ['text, text', 'pg_catalog.regexp_split_to_array($1, $2)', `''`],
      ['text, text, text', 'pg_catalog.regexp_split_to_array($1, $2, $3)', '$3'],
    ])
      await queryRunner.query(`
        CREATE FUNCTION query_guard.regexp_split_to_array(${signature}) RETURNS text[]
          LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $$
          SELECT CASE
            WHEN ${cost('pg_catalog.length($1)::bigint + 1')} <= ${VALUE_CAP_BYTES} THEN ${call}
            WHEN ${cost(`pg_catalog.regexp_count($1, $2, 1, ${flags})::bigint + 1`)} > ${VALUE_CAP_BYTES}
              THEN query_guard.too_large()::text[]
            ELSE ${call}
          END
        $$`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    for (const name of ['string_to_array', 'regexp_split_to_array']) {
      await queryRunner.query(`DROP FUNCTION query_guard.${name}(text, text)`);
      await queryRunner.query(`DROP FUNCTION query_guard.${name}(text, text, text)`);
    }
  }
}
