import { createReadStream, createWriteStream, existsSync, statSync } from 'node:fs';
import { once } from 'node:events';
import { createInterface } from 'node:readline';

/** Fields before the quoted note in each line of the benchmark CSV (see BENCH_COLUMNS). */
const PLAIN_FIELDS = 9;
const AMOUNT = 2;
const ORDER_DATE = 4;
const RATING = 8;

/**
 * The benchmark CSV as a German spreadsheet would export it: semicolons, decimal commas and
 * day-first dates (31.12.2024). The same data as the canonical file, so psql \copy of that file
 * is the baseline for ingesting this one.
 */
export async function generateDialectCsv(
  canonicalPath: string,
  path: string,
): Promise<{ path: string; bytes: number }> {
  if (existsSync(path) && statSync(path).size > 0) return { path, bytes: statSync(path).size };
  const out = createWriteStream(path);
  let buffer = '';
  let header = true;
  for await (const line of createInterface({ input: createReadStream(canonicalPath) })) {
    if (header) {
      buffer += line.replaceAll(',', ';') + '\n';
      header = false;
      continue;
    }
    let at = 0;
    const fields: string[] = [];
    for (let field = 0; field < PLAIN_FIELDS; field++) {
      const comma = line.indexOf(',', at);
      fields.push(line.slice(at, comma));
      at = comma + 1;
    }
    fields[AMOUNT] = fields[AMOUNT].replace('.', ',');
    fields[RATING] = fields[RATING].replace('.', ',');
    const [year, month, day] = fields[ORDER_DATE].split('-');
    fields[ORDER_DATE] = `${day}.${month}.${year}`;
    buffer += `${fields.join(';')};${line.slice(at)}\n`;
    if (buffer.length > 1 << 20) {
      if (!out.write(buffer)) await once(out, 'drain');
      buffer = '';
    }
  }
  out.end(buffer);
  await once(out, 'finish');
  return { path, bytes: statSync(path).size };
}
