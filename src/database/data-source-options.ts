import { join } from 'node:path';
import type { DataSourceOptions } from 'typeorm';

/** Options shared by the app, the TypeORM CLI (ormconfig.ts) and the tests. */
export function buildDataSourceOptions(url: string): DataSourceOptions {
  return {
    type: 'postgres',
    url,
    entities: [join(__dirname, '..', '**', 'entities', '*.entity.{ts,js}')],
    migrations: [join(__dirname, 'migrations', '*.{ts,js}')],
    migrationsTableName: 'migrations',
    synchronize: false,
    migrationsRun: false,
    extra: {
      max: Number(process.env.DATABASE_POOL_SIZE ?? 20),
      // Fail fast instead of queueing forever when the server is gone; the error filter answers 503.
      connectionTimeoutMillis: 5000,
    },
  };
}
