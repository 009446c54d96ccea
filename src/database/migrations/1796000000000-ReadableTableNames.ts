import { MigrationInterface, QueryRunner } from 'typeorm';

/** The tables that get a readable name, with the text it is made from. */
const NAMED_TABLES = [
  { table: 'assets', title: 'NEW.title' },
  { table: 'connector_instances', title: 'NEW.title' },
  {
    table: 'connector_instance_tables',
    title: `(SELECT instance.title FROM connector_instances instance WHERE instance.id = NEW.instance_id) || ' ' || NEW.operation_id`,
  },
];

/**
 * One short, readable, stable name for every readable table (a dataset, a connector instance's own
 * table, each further stream's table): the OData entity set, the stream link, the download file
 * and the table's name in user SQL. `readable_names` holds every name ever given, so a name is
 * unique across all three kinds and is not handed to another table after its own is deleted (a
 * saved query then finds nothing rather than someone else's rows).
 *
 * The name is given by the database as the row is inserted (a trigger), so every way a row comes
 * in gets one in the same transaction, and two inserts with the same title cannot get the same
 * name: the primary key decides, and the loser takes the next suffix. The rules are the
 * `readable_name_*` functions below; `src/database/data-tables/readable-name.ts` states the
 * resulting shape to the application.
 */
export class ReadableTableNames1796000000000 implements MigrationInterface {
  name = 'ReadableTableNames1796000000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE readable_names (
        name text PRIMARY KEY CONSTRAINT readable_names_name_check CHECK (name ~ '^[a-z][a-z0-9_]{0,47}$'),
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    // Accents dropped (NFKD, then the combining marks), lower-case letters and digits, every other
    // run one underscore; a letter first, as an unquoted SQL identifier needs; at most 48 characters.
    await queryRunner.query(`
      CREATE FUNCTION readable_name_base(title text) RETURNS text LANGUAGE plpgsql IMMUTABLE AS $$
      DECLARE
        slug text := lower(regexp_replace(normalize(coalesce(title, ''), NFKD), '[\\u0300-\\u036f]', '', 'g'));
      BEGIN
        slug := btrim(regexp_replace(slug, '[^a-z0-9]+', '_', 'g'), '_');
        IF slug = '' THEN slug := 'untitled'; END IF;
        IF slug ~ '^[0-9]' THEN slug := 't_' || slug; END IF;
        RETURN rtrim(left(slug, 48), '_');
      END $$`);
    // The first free candidate: the base, then base_2, base_3, … (the base cut to keep 48
    // characters). A word the SQL parser reserves (anything but an unreserved keyword) is never
    // free, so the name can be written unquoted in a query.
    await queryRunner.query(`
      CREATE FUNCTION readable_name_claim(title text) RETURNS text LANGUAGE plpgsql AS $$
      DECLARE
        base text := readable_name_base(title);
        candidate text := base;
        attempt integer := 1;
      BEGIN
        LOOP
          IF NOT EXISTS (SELECT 1 FROM pg_get_keywords() WHERE word = candidate AND catcode <> 'U') THEN
            INSERT INTO readable_names (name) VALUES (candidate) ON CONFLICT DO NOTHING;
            IF FOUND THEN RETURN candidate; END IF;
          END IF;
          attempt := attempt + 1;
          candidate := rtrim(left(base, 47 - length(attempt::text)), '_') || '_' || attempt;
        END LOOP;
      END $$`);
    for (const { table, title } of NAMED_TABLES) {
      await queryRunner.query(`ALTER TABLE ${table} ADD COLUMN readable_name text`);
      // Existing tables, oldest first, so the first of two equal titles keeps the plain name.
      await queryRunner.query(`
        DO $$
        DECLARE target record;
        BEGIN
          FOR target IN SELECT id FROM ${table} ORDER BY created_at, id LOOP
            UPDATE ${table} NEW SET readable_name = readable_name_claim(${title}) WHERE NEW.id = target.id;
          END LOOP;
        END $$`);
      await queryRunner.query(`ALTER TABLE ${table} ALTER COLUMN readable_name SET NOT NULL`);
      await queryRunner.query(`CREATE UNIQUE INDEX ${table}_readable_name_key ON ${table} (readable_name)`);
      await queryRunner.query(
        `ALTER TABLE ${table} ADD CONSTRAINT ${table}_readable_name_fkey
         FOREIGN KEY (readable_name) REFERENCES readable_names(name)`,
      );
      // Only the database gives a name (a name sent with an insert is not taken), and never
      // another: so no two tables of any kind can share one.
      await queryRunner.query(`
        CREATE FUNCTION ${table}_readable_name() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
          IF TG_OP = 'INSERT' THEN
            NEW.readable_name := readable_name_claim(${title});
          ELSIF NEW.readable_name IS DISTINCT FROM OLD.readable_name THEN
            RAISE EXCEPTION 'A readable table name never changes' USING ERRCODE = 'check_violation';
          END IF;
          RETURN NEW;
        END $$`);
      await queryRunner.query(
        `CREATE TRIGGER ${table}_readable_name BEFORE INSERT OR UPDATE OF readable_name ON ${table}
         FOR EACH ROW EXECUTE FUNCTION ${table}_readable_name()`,
      );
    }
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    for (const { table } of [...NAMED_TABLES].reverse()) {
      await queryRunner.query(`DROP TRIGGER ${table}_readable_name ON ${table}`);
      await queryRunner.query(`DROP FUNCTION ${table}_readable_name()`);
      await queryRunner.query(`ALTER TABLE ${table} DROP COLUMN readable_name`);
    }
    await queryRunner.query(`DROP FUNCTION readable_name_claim(text)`);
    await queryRunner.query(`DROP FUNCTION readable_name_base(text)`);
    await queryRunner.query(`DROP TABLE readable_names`);
  }
}
