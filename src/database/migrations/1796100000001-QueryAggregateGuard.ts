import { MigrationInterface, QueryRunner } from 'typeorm';

/** The cap of QueryValueGuards1796041000000, here for everything a statement's aggregates build: 16 MB. */
const VALUE_CAP_BYTES = 16 * 1024 * 1024;

/**
 * The running total of what a statement's value-building aggregates took in. Transaction-local
 * (set_config(…, true)): the query runner's transaction runs one statement (its LIMIT 0
 * description executes nothing), and a new one starts from nothing.
 */
const TOTAL_SETTING = 'query_guard.aggregated_bytes';

/**
 * Values smaller than this are counted as this many bytes, with the probability of their share
 * of it: the same total to expect, and the setting (most of the guard's cost) changed for about
 * one value in a hundred of the usual size. Between 16 MB and the refusal lie thousands of such
 * counts, so the total strays from the true bytes by a percent or two (no one can steer random()
 * from a query: setseed is not allowed); values of this size and more count exactly.
 */
const SAMPLE_BYTES = 4096;

/** What the user reads (a 400: program_limit_exceeded keeps its words, see user-sql-errors.ts). */
const AGGREGATES_TOO_LARGE =
  'the query builds a value larger than 16 MB: what its aggregates (string_agg, array_agg, json_agg …) take in may be at most 16 MB together';

/**
 * The guard the query check wraps around every argument of string_agg, array_agg, json(b)_agg and
 * json(b)_object_agg (src/query/check/aggregate-guard.ts): it hands the value on unchanged, after
 * adding its bytes (as text, plus `overhead`: what the aggregate keeps beside each element, and
 * the call's constant arguments) to the statement's total, and refuses the statement once that
 * passes 16 MB. So an aggregate stops growing within a value of the cap, in time linear in its rows (a PL/pgSQL aggregate keeping its
 * state copied the state on every row). It counts arguments as they are computed, before any
 * DISTINCT, and over every group: a bound on the whole statement, which is what hash aggregation
 * with many groups would otherwise hold at once.
 *
 * VOLATILE, so the planner never computes it once for a constant argument. PARALLEL UNSAFE: no
 * setting may change while a parallel plan runs, not even in its leader (PARALLEL RESTRICTED
 * failed so under a Gather), so a statement with these aggregates runs without workers.
 */
export class QueryAggregateGuard1796100000001 implements MigrationInterface {
  name = 'QueryAggregateGuard1796100000001';

  public async up(queryRunner: QueryRunner): Promise<void> {
    // For any type, and for text: a literal of unknown type ('x', NULL) takes the text one.
    for (const [type, bytes] of [
      ['anyelement', 'pg_catalog.octet_length(value::text)'],
      ['text', 'pg_catalog.octet_length(value)'],
    ])
      await queryRunner.query(`
        CREATE FUNCTION query_guard.aggregated(value ${type}, overhead integer) RETURNS ${type}
          LANGUAGE plpgsql VOLATILE PARALLEL UNSAFE AS $$
          DECLARE
            bytes bigint := coalesce(${bytes}, 0) + overhead;
            total bigint;
          BEGIN
            IF bytes < ${SAMPLE_BYTES} THEN
              IF pg_catalog.random() * ${SAMPLE_BYTES} >= bytes THEN
                RETURN value;
              END IF;
              bytes := ${SAMPLE_BYTES};
            END IF;
            total := bytes + coalesce(nullif(pg_catalog.current_setting('${TOTAL_SETTING}', true), '')::bigint, 0);
            IF total > ${VALUE_CAP_BYTES} THEN
              RAISE EXCEPTION '${AGGREGATES_TOO_LARGE}' USING ERRCODE = 'program_limit_exceeded';
            END IF;
            PERFORM pg_catalog.set_config('${TOTAL_SETTING}', total::text, true);
            RETURN value;
          END $$`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP FUNCTION query_guard.aggregated(anyelement, integer)`);
    await queryRunner.query(`DROP FUNCTION query_guard.aggregated(text, integer)`);
  }
}
