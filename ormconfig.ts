import { DataSource } from 'typeorm';
import { buildDataSourceOptions } from './src/database/data-source-options';

/**
 * The DataSource for the TypeORM CLI (`npm run migration:generate|run|revert`). The npm scripts
 * start the embedded PostgreSQL and set DATABASE_URL when none is configured.
 */
const url = process.env.DATABASE_URL;
if (!url) {
  throw new Error('DATABASE_URL is not set: run the TypeORM CLI through `npm run typeorm -- <command>`');
}

export default new DataSource(buildDataSourceOptions(url));
