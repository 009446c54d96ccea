import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { PRODUCT_NAME } from '../../src/common/product';

const ROOT = resolve(__dirname, '..', '..');
/** The other name the product once had here; `DataMarketplace` (the OData namespace) is an identifier. */
const OTHER_NAME = /DataMarket(?!place)/;

function filesUnder(folder: string): string[] {
  return readdirSync(folder).flatMap((name) => {
    const path = join(folder, name);
    if (statSync(path).isDirectory())
      return name === 'node_modules' || name === 'dist' ? [] : filesUnder(path);
    return /\.(ts|tsx|md|html|json|svg)$/.test(name) ? [path] : [];
  });
}

describe('one product name and a README for newcomers', () => {
  it('calls the product "Data Marketplace" everywhere users or readers see it', () => {
    const places = [
      join(ROOT, 'README.md'),
      ...filesUnder(join(ROOT, 'docs')),
      ...filesUnder(join(ROOT, 'src')),
      ...filesUnder(join(ROOT, 'frontend', 'src')),
      join(ROOT, 'frontend', 'index.html'),
      ...filesUnder(join(ROOT, 'frontend', 'public')),
    ];
    const misnamed = places
      .filter((file) => OTHER_NAME.test(readFileSync(file, 'utf8')))
      .map((file) => relative(ROOT, file));
    expect(misnamed).toEqual([]);
    expect(PRODUCT_NAME).toBe('Data Marketplace');
    expect(readFileSync(join(ROOT, 'README.md'), 'utf8').split('\n')[0]).toBe(`# ${PRODUCT_NAME}`);
    expect(readFileSync(join(ROOT, 'frontend', 'index.html'), 'utf8')).toContain(
      `<title>${PRODUCT_NAME}</title>`,
    );
    const openApi = JSON.parse(readFileSync(join(ROOT, 'frontend', 'src', 'api', 'openapi.json'), 'utf8'));
    expect(openApi.info.title).toBe(`${PRODUCT_NAME} API`);
  });

  it('keeps the benchmarks in docs/performance.md, linked from the README', () => {
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    expect(readme).toContain('](docs/performance.md)');
    expect(readme).not.toMatch(/^#+ Benchmarks/m);
    expect(readme).not.toContain('| Target');
    expect(existsSync(join(ROOT, 'docs', 'performance.md'))).toBe(true);
    expect(readFileSync(join(ROOT, 'docs', 'performance.md'), 'utf8')).toMatch(/^## Benchmarks/m);
  });
});
