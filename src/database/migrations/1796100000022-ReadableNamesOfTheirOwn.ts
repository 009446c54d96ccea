import { MigrationInterface, QueryRunner } from 'typeorm';

/** The tables that get a readable name, with the text it is made from (as in ReadableTableNames1796000000000). */
const NAMED_TABLES = [
  { table: 'assets', title: 'NEW.title' },
  { table: 'connector_instances', title: 'NEW.title' },
  {
    table: 'connector_instance_tables',
    title: `(SELECT instance.title FROM connector_instances instance WHERE instance.id = NEW.instance_id) || ' ' || NEW.operation_id`,
  },
];

/**
 * A new readable name no longer depends on other tenants' names. Names are unique across everyone,
 * and a clash took the next suffix (`_2`): a user could tell whether someone else already had a
 * table of a given title (a private dataset's or connection's). A new name is now the title's base
 * followed by hex digits of the row's own id: four (short enough for a phone's line), and four
 * more at a time only if those were taken, which happens by chance alone and tells of no title. Names already given stay as they are: links and saved queries
 * use them. The platform's own demo content, inserted with its title as the name, keeps the plain
 * form (`global_stock_prices_2024`), which the README's examples use.
 */
export class ReadableNamesOfTheirOwn1796100000022 implements MigrationInterface {
  name = 'ReadableNamesOfTheirOwn1796100000022';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE OR REPLACE FUNCTION readable_name_claim(title text, id uuid) RETURNS text LANGUAGE plpgsql AS $$
      DECLARE
        base text := readable_name_base(title);
        digits text := replace(id::text, '-', '');
        candidate text;
      BEGIN
        FOR width IN 4..32 BY 4 LOOP
          candidate := rtrim(left(base, 47 - width), '_') || '_' || left(digits, width);
          INSERT INTO readable_names (name) VALUES (candidate) ON CONFLICT DO NOTHING;
          IF FOUND THEN RETURN candidate; END IF;
        END LOOP;
        RAISE EXCEPTION 'No readable name is free for %', id USING ERRCODE = 'unique_violation';
      END $$`);
    for (const { table, title } of NAMED_TABLES) await this.trigger(queryRunner, table, `${title}, NEW.id`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    for (const { table, title } of NAMED_TABLES) await this.trigger(queryRunner, table, title);
    await queryRunner.query(`DROP FUNCTION readable_name_claim(text, uuid)`);
  }

  /** The table's trigger function, claiming with `claimArguments` (the trigger itself stays). */
  private async trigger(queryRunner: QueryRunner, table: string, claimArguments: string): Promise<void> {
    await queryRunner.query(`
      CREATE OR REPLACE FUNCTION ${table}_readable_name() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF TG_OP = 'INSERT' AND NEW.readable_name IS NOT NULL THEN
          -- The platform's own content (the demo seed) asks for its title's plain name.
          NEW.readable_name := readable_name_claim(NEW.readable_name);
        ELSIF TG_OP = 'INSERT' THEN
          NEW.readable_name := readable_name_claim(${claimArguments});
        ELSIF NEW.readable_name IS DISTINCT FROM OLD.readable_name THEN
          RAISE EXCEPTION 'A readable table name never changes' USING ERRCODE = 'check_violation';
        END IF;
        RETURN NEW;
      END $$`);
  }
}
