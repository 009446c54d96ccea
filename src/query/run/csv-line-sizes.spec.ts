import { CsvLineSizes } from './csv-line-sizes';
import { QUERY_MAX_ROW_BYTES, RowTooLarge } from './row-size-cap';

/** Feeds `text` in pieces of `size` bytes. */
function feed(text: string, size: number): void {
  const bytes = Buffer.from(text);
  const sizes = new CsvLineSizes();
  for (let at = 0; at < bytes.length; at += size) sizes.check(bytes.subarray(at, at + size));
}

describe('CsvLineSizes', () => {
  const half = 'x'.repeat(QUERY_MAX_ROW_BYTES / 2);
  const wide = 'x'.repeat(QUERY_MAX_ROW_BYTES + 1);

  it('lets lines within the cap pass, each counted on its own, however cut', () => {
    for (const size of [7, 65_536, QUERY_MAX_ROW_BYTES * 2])
      expect(() => feed(`1,${half}\n"${half}"\n${half}\n`, size)).not.toThrow();
  });

  it('refuses a line past the cap, cut into pieces or within one piece', () => {
    for (const size of [65_536, QUERY_MAX_ROW_BYTES * 3])
      expect(() => feed(`1,a\n2,${wide}\n3,b\n`, size)).toThrow(RowTooLarge);
  });
});
