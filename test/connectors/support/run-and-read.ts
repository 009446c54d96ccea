import { parse } from 'lossless-json';
import { WRITTEN_TEXT_SUFFIX } from '../../../src/database/data-tables/data-table-names';
import { waitForRuns } from '../../factories/connector.factory';
import { TEST_ORIGIN, TestApp } from '../../support/test-app';
import type { ConnectedInstance } from './run-through-api';

/** Runs an instance to its end (append unless told otherwise) and answers the newest run. */
export async function runToEnd(
  instance: ConnectedInstance,
  override = false,
): Promise<Record<string, unknown>> {
  await instance.agent
    .post(`/api/connectors/instance/${instance.id}/run`)
    .set('Origin', TEST_ORIGIN)
    .send({ override })
    .expect(202);
  const [run] = await waitForRuns(instance.agent, instance.id, 20_000);
  return run;
}

/** The instance's table name. */
export async function tableOf(testApp: TestApp, instanceId: string): Promise<string> {
  const [row] = await testApp.dataSource.query(
    `SELECT output_table_name FROM connector_instances WHERE id = $1`,
    [instanceId],
  );
  return row.output_table_name as string;
}

/**
 * The table's rows as readers see them (system columns and the text kept beside timestamps left
 * out), as text, in insertion order.
 */
export async function rowsOf(
  testApp: TestApp,
  instanceId: string,
  orderBy = 'ctid',
): Promise<Array<Record<string, string | null>>> {
  const table = await tableOf(testApp, instanceId);
  // As JSON text read without rounding: the driver's JSON.parse would round big numbers.
  const rows: Array<{ row: string }> = await testApp.dataSource.query(
    `SELECT (row_to_json(t)::jsonb - '_run_id' - '_fetched_at')::text AS row FROM (SELECT * FROM data."${table}" ORDER BY ${orderBy}) t`,
  );
  return rows
    .map(({ row: text }) => parse(text, null, (digits) => digits) as Record<string, unknown>)
    .map((row) =>
      Object.fromEntries(
        Object.entries(row)
          .filter(([key]) => !key.endsWith(WRITTEN_TEXT_SUFFIX))
          .map(([key, value]) => [
            key,
            value === null ? null : typeof value === 'object' ? JSON.stringify(value) : String(value),
          ]),
      ),
    );
}

/** Column name -> Postgres type name of the instance's table (the text kept beside timestamps left out). */
export async function columnTypesOf(testApp: TestApp, instanceId: string): Promise<Record<string, string>> {
  const table = await tableOf(testApp, instanceId);
  const rows: Array<{ name: string; type: string }> = await testApp.dataSource.query(
    `SELECT a.attname AS name, format_type(a.atttypid, a.atttypmod) AS type
       FROM pg_attribute a WHERE a.attrelid = $1::regclass AND a.attnum > 0 AND NOT a.attisdropped
        AND right(a.attname, $2) <> $3`,
    [`data."${table}"`, WRITTEN_TEXT_SUFFIX.length, WRITTEN_TEXT_SUFFIX],
  );
  return Object.fromEntries(rows.map((row) => [row.name, row.type]));
}
