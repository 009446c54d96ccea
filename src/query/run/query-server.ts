import type { DataSource } from 'typeorm';
import { directUrlOf } from '../../database/sql';

/**
 * Where user SQL logs in as the user's own role: PostgreSQL itself (DATABASE_DIRECT_URL), not a
 * transaction-mode PgBouncer in DATABASE_URL. A pooler knows only the users of its auth file (the
 * app's), so it would refuse every query role; and each role would be a pool of its own there,
 * holding server connections for roles that ran one query. A query's connection is its own and
 * closed when the query ends, so nothing is lost by going straight to the server.
 */
export function queryServerUrl(dataSource: DataSource): string | undefined {
  return directUrlOf(dataSource);
}
