import { MigrationInterface, QueryRunner } from 'typeorm';

/** The app schema for every entity of the product, plus the `data` schema for dataset tables. */
export class InitialSchema1795270000000 implements MigrationInterface {
  name = 'InitialSchema1795270000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE EXTENSION IF NOT EXISTS pg_trgm`);
    await queryRunner.query(`CREATE SCHEMA IF NOT EXISTS data`);

    await queryRunner.query(`
      CREATE TABLE users (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        email text NOT NULL,
        name text NOT NULL,
        password_hash text NOT NULL,
        email_verified_at timestamptz,
        api_key_hash text,
        api_key_encrypted text,
        pro_user boolean NOT NULL DEFAULT false,
        blog_editor boolean NOT NULL DEFAULT false,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await queryRunner.query(`CREATE UNIQUE INDEX users_email_lower_key ON users (lower(email))`);
    await queryRunner.query(`CREATE UNIQUE INDEX users_api_key_hash_key ON users (api_key_hash)`);

    await queryRunner.query(`
      CREATE TABLE email_verification_tokens (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        token_hash text NOT NULL,
        expires_at timestamptz NOT NULL,
        used_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await queryRunner.query(
      `CREATE UNIQUE INDEX email_verification_tokens_token_hash_key ON email_verification_tokens (token_hash)`,
    );
    await queryRunner.query(
      `CREATE INDEX email_verification_tokens_user_id_idx ON email_verification_tokens (user_id)`,
    );

    await queryRunner.query(`
      CREATE TABLE mail_outbox (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        recipient text NOT NULL,
        subject text NOT NULL,
        text text NOT NULL,
        html text,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await queryRunner.query(`CREATE INDEX mail_outbox_recipient_idx ON mail_outbox (recipient)`);

    // Layout read and written by connect-pg-simple.
    await queryRunner.query(`
      CREATE TABLE session (
        sid varchar NOT NULL PRIMARY KEY,
        sess json NOT NULL,
        expire timestamp(6) NOT NULL
      )`);
    await queryRunner.query(`CREATE INDEX session_expire_idx ON session (expire)`);
    // Lets a password change end every other session of one user.
    await queryRunner.query(`CREATE INDEX session_user_idx ON session ((sess -> 'passport' ->> 'user'))`);

    await queryRunner.query(`
      CREATE TABLE rate_limit_buckets (
        key text PRIMARY KEY,
        window_start timestamptz NOT NULL,
        hits integer NOT NULL
      )`);

    await queryRunner.query(`
      CREATE TABLE assets (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        owner_id uuid REFERENCES users(id) ON DELETE SET NULL,
        title text NOT NULL,
        description text NOT NULL DEFAULT '',
        category text NOT NULL DEFAULT 'Other',
        keywords text[] NOT NULL DEFAULT '{}',
        price numeric(12,2) NOT NULL DEFAULT 0 CHECK (price >= 0),
        currency text NOT NULL DEFAULT 'USD',
        is_public boolean NOT NULL DEFAULT true,
        image text,
        subscriber_count integer NOT NULL DEFAULT 0 CHECK (subscriber_count >= 0),
        source text NOT NULL DEFAULT '',
        author text NOT NULL DEFAULT '',
        table_name text NOT NULL,
        row_count bigint NOT NULL DEFAULT 0,
        columns jsonb NOT NULL DEFAULT '[]',
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await queryRunner.query(`CREATE INDEX assets_owner_id_idx ON assets (owner_id)`);
    await queryRunner.query(`CREATE INDEX assets_category_idx ON assets (category)`);
    await queryRunner.query(`CREATE INDEX assets_is_public_idx ON assets (is_public)`);
    await queryRunner.query(`CREATE INDEX assets_created_at_idx ON assets (created_at)`);
    await queryRunner.query(`CREATE UNIQUE INDEX assets_table_name_key ON assets (table_name)`);
    await queryRunner.query(`CREATE INDEX assets_search_idx ON assets USING gin (title gin_trgm_ops)`);

    await queryRunner.query(`
      CREATE TABLE access_grants (
        user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        asset_id uuid NOT NULL REFERENCES assets(id) ON DELETE CASCADE,
        reason text NOT NULL CHECK (reason IN ('owner', 'free', 'purchase')),
        granted_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (user_id, asset_id)
      )`);
    await queryRunner.query(`CREATE INDEX access_grants_asset_id_idx ON access_grants (asset_id)`);

    await queryRunner.query(`
      CREATE TABLE purchases (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        asset_id uuid REFERENCES assets(id) ON DELETE SET NULL,
        amount numeric(12,2) NOT NULL CHECK (amount >= 0),
        currency text NOT NULL,
        status text NOT NULL CHECK (status IN ('pending', 'paid', 'failed')),
        provider text NOT NULL,
        payment_reference text,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await queryRunner.query(`CREATE INDEX purchases_user_id_idx ON purchases (user_id)`);
    await queryRunner.query(`CREATE INDEX purchases_asset_id_idx ON purchases (asset_id)`);

    await queryRunner.query(`
      CREATE TABLE connectors (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        owner_id uuid REFERENCES users(id) ON DELETE SET NULL,
        title text NOT NULL,
        description text NOT NULL DEFAULT '',
        category text NOT NULL DEFAULT 'API',
        price numeric(12,2) NOT NULL DEFAULT 0 CHECK (price >= 0),
        is_public boolean NOT NULL DEFAULT true,
        image text,
        source text NOT NULL DEFAULT '',
        author text NOT NULL DEFAULT '',
        fetch_url_template text NOT NULL,
        schema jsonb NOT NULL DEFAULT '{"fields":[]}',
        specification_schema jsonb NOT NULL DEFAULT '{"fields":[]}',
        auth_fields jsonb NOT NULL DEFAULT '[]',
        spec jsonb,
        subscriber_count integer NOT NULL DEFAULT 0 CHECK (subscriber_count >= 0),
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await queryRunner.query(`CREATE INDEX connectors_owner_id_idx ON connectors (owner_id)`);

    await queryRunner.query(`
      CREATE TABLE connector_instances (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        connector_id uuid NOT NULL REFERENCES connectors(id) ON DELETE CASCADE,
        owner_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        title text NOT NULL,
        visibility text NOT NULL DEFAULT 'private' CHECK (visibility IN ('private', 'public')),
        refresh_interval integer NOT NULL DEFAULT 0 CHECK (refresh_interval >= 0),
        settings jsonb NOT NULL DEFAULT '{}',
        iterations jsonb NOT NULL DEFAULT '[]',
        method text NOT NULL DEFAULT 'GET' CHECK (method IN ('GET', 'POST')),
        headers jsonb NOT NULL DEFAULT '{}',
        body_template text,
        auth_data_encrypted text,
        output_table_name text NOT NULL,
        last_run_started_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await queryRunner.query(
      `CREATE INDEX connector_instances_connector_id_idx ON connector_instances (connector_id)`,
    );
    await queryRunner.query(
      `CREATE INDEX connector_instances_owner_id_idx ON connector_instances (owner_id)`,
    );
    await queryRunner.query(
      `CREATE UNIQUE INDEX connector_instances_output_table_name_key ON connector_instances (output_table_name)`,
    );
    await queryRunner.query(
      `CREATE INDEX connector_instances_due_idx ON connector_instances (refresh_interval, last_run_started_at)`,
    );

    await queryRunner.query(`
      CREATE TABLE connector_runs (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        instance_id uuid NOT NULL REFERENCES connector_instances(id) ON DELETE CASCADE,
        trigger text NOT NULL CHECK (trigger IN ('manual', 'schedule')),
        status text NOT NULL DEFAULT 'running' CHECK (status IN ('running', 'succeeded', 'failed')),
        override boolean NOT NULL DEFAULT false,
        started_at timestamptz NOT NULL DEFAULT now(),
        finished_at timestamptz,
        row_count integer NOT NULL DEFAULT 0,
        pages_fetched integer NOT NULL DEFAULT 0,
        error text
      )`);
    await queryRunner.query(
      `CREATE INDEX connector_runs_instance_started_idx ON connector_runs (instance_id, started_at)`,
    );
    await queryRunner.query(`CREATE INDEX connector_runs_status_idx ON connector_runs (status)`);

    await queryRunner.query(`
      CREATE TABLE blog_posts (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        title text NOT NULL,
        slug text NOT NULL,
        type text NOT NULL CHECK (type IN ('update', 'use_case', 'whitepaper')),
        cover_image text,
        content text NOT NULL DEFAULT '',
        author_id uuid REFERENCES users(id) ON DELETE SET NULL,
        views integer NOT NULL DEFAULT 0,
        likes integer NOT NULL DEFAULT 0,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await queryRunner.query(`CREATE UNIQUE INDEX blog_posts_slug_key ON blog_posts (slug)`);
    await queryRunner.query(`CREATE INDEX blog_posts_type_idx ON blog_posts (type)`);
    await queryRunner.query(`CREATE INDEX blog_posts_created_at_idx ON blog_posts (created_at)`);
    // Full-text search over the title and the tag-stripped content; queries must use the same expression.
    await queryRunner.query(`
      CREATE INDEX blog_posts_search_idx ON blog_posts USING gin (
        to_tsvector('simple', title || ' ' || regexp_replace(content, '<[^>]*>', ' ', 'g'))
      )`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    for (const table of [
      'blog_posts',
      'connector_runs',
      'connector_instances',
      'connectors',
      'purchases',
      'access_grants',
      'assets',
      'rate_limit_buckets',
      'session',
      'mail_outbox',
      'email_verification_tokens',
      'users',
    ]) {
      await queryRunner.query(`DROP TABLE IF EXISTS ${table}`);
    }
    await queryRunner.query(`DROP SCHEMA IF EXISTS data CASCADE`);
  }
}
