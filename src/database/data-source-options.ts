import { join } from 'node:path';
import type { DataSourceOptions } from 'typeorm';

/** Connections per process unless DATABASE_POOL_SIZE says otherwise. */
export const DEFAULT_POOL_SIZE = 20;

/** Options shared by the app, the TypeORM CLI (ormconfig.ts) and the tests. */
export function buildDataSourceOptions(url: string, poolSize = DEFAULT_POOL_SIZE): DataSourceOptions {
  return {
    type: 'postgres',
    url,
    entities: [join(__dirname, '..', '**', 'entities', '*.entity.{ts,js}')],
    migrations: [join(__dirname, 'migrations', '*.{ts,js}')],
    migrationsTableName: 'migrations',
    synchronize: false,
    migrationsRun: false,
    extra: {
      max: poolSize,
      // Fail fast instead of queueing forever when the server is gone; the error filter answers 503.
      connectionTimeoutMillis: 5000,
    },
  };
}
