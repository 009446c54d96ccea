import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PROJECT_ROOT } from './paths';

/** The one name the product goes by: page titles, e-mails, the API documentation, the log. */
export const PRODUCT_NAME = 'Data Marketplace';

/** The version in package.json (shipped beside dist/ in every build, the Docker image included). */
export function productVersion(): string {
  const manifest = JSON.parse(readFileSync(join(PROJECT_ROOT, 'package.json'), 'utf8')) as {
    version: string;
  };
  return manifest.version;
}
