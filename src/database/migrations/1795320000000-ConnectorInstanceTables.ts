import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * An instance may run several operations of its connector's spec: the first writes the
 * instance's own table as before, each further one its own table listed here. A run records
 * the outcome of each operation it ran.
 */
export class ConnectorInstanceTables1795320000000 implements MigrationInterface {
  name = 'ConnectorInstanceTables1795320000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE connector_instance_tables (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        instance_id uuid NOT NULL,
        operation_id text NOT NULL,
        output_table_name text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT connector_instance_tables_instance_id_fkey FOREIGN KEY (instance_id)
          REFERENCES connector_instances(id) ON DELETE CASCADE
      )`);
    await queryRunner.query(
      `CREATE UNIQUE INDEX connector_instance_tables_instance_operation_key
       ON connector_instance_tables (instance_id, operation_id)`,
    );
    await queryRunner.query(
      `CREATE UNIQUE INDEX connector_instance_tables_output_table_name_key
       ON connector_instance_tables (output_table_name)`,
    );
    await queryRunner.query(`ALTER TABLE connector_runs ADD COLUMN operations jsonb NOT NULL DEFAULT '[]'`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE connector_runs DROP COLUMN operations`);
    await queryRunner.query(`DROP TABLE connector_instance_tables`);
  }
}
