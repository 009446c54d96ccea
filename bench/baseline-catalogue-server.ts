import { createServer } from 'node:http';
import { Pool } from 'pg';
import { SESSION_PLANNER_OPTIONS } from '../src/database/data-source-options';

/**
 * The catalogue baseline: a plain node:http server with a pg pool answering the same catalogue
 * query as GET /api/assets (same columns, access rules, search, order, paging and total), with
 * none of the framework around it. Started as its own process by the benchmark.
 */
// The app's pool size and session planner settings.
const pool = new Pool({
  connectionString: process.env.DATABASE_URL,
  max: 20,
  options: SESSION_PLANNER_OPTIONS,
});

// The catalogue's access rules written out, as the app's AccessGate phrases them.
const OWNED = `COALESCE(asset.owner_id = CAST($1 AS uuid), false)`;
const HELD = `(${OWNED} OR EXISTS (SELECT 1 FROM access_grants held_grant
  WHERE held_grant.asset_id = asset.id AND held_grant.user_id = CAST($1 AS uuid)))`;

const COLUMNS = `asset.id, asset.title, asset.description, asset.category, asset.keywords,
  asset.price::float8 AS price, asset.currency, asset.is_public, asset.image, asset.subscriber_count,
  asset.source, asset.author, asset.row_count::float8 AS row_count, asset.created_at,
  asset.owner_id, asset.table_name,
  ${OWNED} AS owned, ${HELD} AS has_access`;

// The app's ranked search: the words of title, keywords and description (the stored full text),
// or text inside a title, ranked by relevance, newest first among equals.
const WORDS = `websearch_to_tsquery('english', $3)`;
const WHERE = `(asset.is_public OR ${HELD}) AND (asset.search_document @@ ${WORDS} OR asset.title ILIKE $2)`;
const RANK = `ts_rank(asset.search_document, ${WORDS})`;

// The same shape as the app's query: matches ranked once, counted and paged from there.
const SQL = `WITH hits AS MATERIALIZED (
    SELECT asset.id, asset.created_at, ${RANK} AS rank FROM assets asset WHERE ${WHERE}
  ), page AS (
    SELECT * FROM hits ORDER BY rank DESC, created_at DESC, id DESC LIMIT $4 OFFSET 0
  )
  SELECT ${COLUMNS}, (SELECT count(*) FROM hits) AS total
    FROM page JOIN assets asset ON asset.id = page.id
   ORDER BY page.rank DESC, asset.created_at DESC, asset.id DESC`;

const server = createServer((request, response) => {
  const url = new URL(request.url ?? '/', 'http://localhost');
  if (url.pathname === '/api/health') {
    response.end('{"status":"ok"}');
    return;
  }
  const words = (url.searchParams.get('search') ?? '').trim();
  const search = words.replace(/[\\%_]/g, (character) => `\\${character}`);
  const limit = Number(url.searchParams.get('limit') ?? 100);
  pool.query(SQL, [null, `%${search}%`, words, limit]).then(
    ({ rows }) => {
      const total = rows.length > 0 ? Number(rows[0].total) : 0;
      const items = rows.map((row) => ({
        id: row.id,
        type: 'dataset',
        title: row.title,
        description: row.description,
        category: row.category,
        keywords: row.keywords,
        price: row.price,
        currency: row.currency,
        is_public: row.is_public,
        visibility: row.is_public ? 'public' : 'private',
        image: row.image,
        subscriber_count: row.subscriber_count,
        source: row.source,
        author: row.author,
        row_count: row.row_count,
        created_at: (row.created_at as Date).toISOString(),
        owned: row.owned,
        has_access: row.has_access,
      }));
      response.setHeader('content-type', 'application/json; charset=utf-8');
      response.setHeader('x-total-count', String(total));
      response.end(JSON.stringify(items));
    },
    (error: Error) => {
      response.statusCode = 500;
      response.end(JSON.stringify({ error: error.message }));
    },
  );
});

server.keepAliveTimeout = 65_000;
server.listen(Number(process.env.PORT), '127.0.0.1');
process.once('SIGTERM', () => {
  server.close();
  server.closeIdleConnections();
  void pool.end();
});
