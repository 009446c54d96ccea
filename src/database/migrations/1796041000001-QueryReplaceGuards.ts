import { MigrationInterface, QueryRunner } from 'typeorm';

/** The cap of QueryValueGuards1796041000000: 16 MB. */
const VALUE_CAP_BYTES = 16 * 1024 * 1024;

const bytes = (value: string) => `pg_catalog.octet_length(${value})::bigint`;

/**
 * Guarded replace and regexp_replace (see QueryValueGuards1796041000000): each replacement may be
 * longer than what it replaces, so one call can multiply its text (`replace(t, 'a', long)`). A
 * bound from the lengths alone lets the usual calls through at no cost; past it, the matches are
 * counted first, and a result that would pass the cap is refused before it is built.
 */
export class QueryReplaceGuards1796041000001 implements MigrationInterface {
  name = 'QueryReplaceGuards1796041000001';

  public async up(queryRunner: QueryRunner): Promise<void> {
    // Each occurrence of $2 in $1 becomes $3: the text grows by the difference per occurrence.
    const growth = `GREATEST(${bytes('$3')} - ${bytes('$2')}, 0)`;
    const counted = `(${bytes('$1')} - ${bytes("pg_catalog.replace($1, $2, '')")}) / GREATEST(${bytes('$2')}, 1)`;
    await queryRunner.query(`
      CREATE FUNCTION query_guard.replace(text, text, text) RETURNS text
        LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $$
        SELECT CASE
          WHEN ${bytes('$1')} + ${bytes('$1')} / GREATEST(${bytes('$2')}, 1) * ${growth} <= ${VALUE_CAP_BYTES}
            THEN pg_catalog.replace($1, $2, $3)
          WHEN ${bytes('$1')} + ${counted} * ${growth} > ${VALUE_CAP_BYTES} THEN query_guard.too_large()
          ELSE pg_catalog.replace($1, $2, $3)
        END
      $$`);
    // A replacement puts in its own text and, per back reference (\\1 … \\9, \\&), at most the
    // whole source; the matches, at most one per character and the end, together at most the source.
    const references = `pg_catalog.regexp_count($3, '\\\\[1-9&]')::bigint`;
    const perMatch = bytes('$3');
    const bound = (matches: string) => `${bytes('$1')} * (1 + ${references}) + ${matches} * ${perMatch}`;
    const allMatches = `(pg_catalog.length($1)::bigint + 1)`;
    const guarded = (signature: string, call: string, global: string, counted: string) =>
      queryRunner.query(`
        CREATE FUNCTION query_guard.regexp_replace(${signature}) RETURNS text
          LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $$
          SELECT CASE
            WHEN ${bound(`CASE WHEN ${global} THEN ${allMatches} ELSE 1 END`)} <= ${VALUE_CAP_BYTES}
              THEN ${call}
            WHEN ${bound(`CASE WHEN ${global} THEN ${counted} ELSE 1 END`)} > ${VALUE_CAP_BYTES}
              THEN query_guard.too_large()
            ELSE ${call}
          END
        $$`);
    // Flags without g, as regexp_count takes them.
    const plain = (flags: string) => `pg_catalog.replace(${flags}, 'g', '')`;
    await guarded('text, text, text', 'pg_catalog.regexp_replace($1, $2, $3)', 'false', '1');
    await guarded(
      'text, text, text, text',
      'pg_catalog.regexp_replace($1, $2, $3, $4)',
      `pg_catalog.strpos($4, 'g') > 0`,
      `pg_catalog.regexp_count($1, $2, 1, ${plain('$4')})::bigint`,
    );
    // From a start position: the first match only (as without g).
    await guarded('text, text, text, integer', 'pg_catalog.regexp_replace($1, $2, $3, $4)', 'false', '1');
    // The N-th match only, or all of them from the start position when N is 0.
    await guarded(
      'text, text, text, integer, integer',
      'pg_catalog.regexp_replace($1, $2, $3, $4, $5)',
      '$5 = 0',
      `pg_catalog.regexp_count($1, $2, $4)::bigint`,
    );
    await guarded(
      'text, text, text, integer, integer, text',
      'pg_catalog.regexp_replace($1, $2, $3, $4, $5, $6)',
      `$5 = 0 OR pg_catalog.strpos($6, 'g') > 0`,
      `pg_catalog.regexp_count($1, $2, $4, ${plain('$6')})::bigint`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP FUNCTION query_guard.replace(text, text, text)`);
    for (const signature of [
      'text, text, text',
      'text, text, text, text',
      'text, text, text, integer',
      'text, text, text, integer, integer',
      'text, text, text, integer, integer, text',
    ])
      await queryRunner.query(`DROP FUNCTION query_guard.regexp_replace(${signature})`);
  }
}
