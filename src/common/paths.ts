import { basename, dirname, join } from 'node:path';

/** The repository root, whether running from src/ (tests, ts) or from dist/src/ (built). */
export const PROJECT_ROOT =
  basename(__dirname) === 'common' && basename(dirname(dirname(__dirname))) === 'dist'
    ? join(__dirname, '..', '..', '..')
    : join(__dirname, '..', '..');
