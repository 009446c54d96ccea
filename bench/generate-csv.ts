import { createWriteStream, existsSync, statSync } from 'node:fs';
import { once } from 'node:events';

const CATEGORIES = ['Electronics', 'Garden', 'Books', 'Toys', 'Grocery', 'Fashion', 'Health', 'Sports'];
const REGIONS = ['North', 'South', 'East', 'West', 'Central'];
const WORDS = [
  'fast',
  'delivery',
  'great',
  'value',
  'broken',
  'box',
  'arrived',
  'late',
  'would',
  'buy',
  'again',
  'colour',
];

/** Small deterministic PRNG (mulberry32) so every run benchmarks the same bytes. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let value = state;
    value = Math.imul(value ^ (value >>> 15), value | 1);
    value ^= value + Math.imul(value ^ (value >>> 7), value | 61);
    return ((value ^ (value >>> 14)) >>> 0) / 4294967296;
  };
}

export const BENCH_COLUMNS = [
  ['order_id', 'integer'],
  ['customer_id', 'integer'],
  ['amount', 'numeric'],
  ['quantity', 'integer'],
  ['order_date', 'date'],
  ['shipped', 'boolean'],
  ['category', 'text'],
  ['region', 'text'],
  ['rating', 'numeric'],
  ['note', 'text'],
] as const;

/**
 * Writes the benchmark CSV: ints, decimals, dates, booleans, categories and quoted free text with
 * commas. 1,000,000 rows come to about 130 MB. Reused when it already exists: the file name must
 * carry the row count (`-<rows>-`) and should carry a version that changes with this generator.
 */
export async function generateCsv(path: string, rows: number): Promise<{ path: string; bytes: number }> {
  if (existsSync(path) && statSync(path).size > 0 && path.includes(`-${rows}-`)) {
    return { path, bytes: statSync(path).size };
  }
  const next = random(42);
  const out = createWriteStream(path);
  out.write(BENCH_COLUMNS.map(([name]) => name).join(',') + '\n');
  const start = Date.UTC(2020, 0, 1);
  let buffer = '';
  for (let index = 1; index <= rows; index++) {
    const words = Array.from(
      { length: 8 + Math.floor(next() * 6) },
      () => WORDS[Math.floor(next() * WORDS.length)],
    );
    const note = `"${words.slice(0, 3).join(' ')}, ${words.slice(3).join(' ')} ""ok"""`;
    const date = new Date(start + Math.floor(next() * 1800) * 86_400_000).toISOString().slice(0, 10);
    buffer +=
      `${index},${1 + Math.floor(next() * 50_000)},${(next() * 1000).toFixed(2)},${1 + Math.floor(next() * 20)},` +
      `${date},${next() < 0.5 ? 'true' : 'false'},${CATEGORIES[Math.floor(next() * CATEGORIES.length)]},` +
      `${REGIONS[Math.floor(next() * REGIONS.length)]},${(1 + next() * 4).toFixed(1)},${note}\n`;
    if (buffer.length > 1 << 20) {
      if (!out.write(buffer)) await once(out, 'drain');
      buffer = '';
    }
  }
  out.end(buffer);
  await once(out, 'finish');
  return { path, bytes: statSync(path).size };
}
