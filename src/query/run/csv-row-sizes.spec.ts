import { CsvRowSizes } from './csv-row-sizes';
import { QUERY_MAX_ROW_BYTES, RowTooLarge } from './row-size-cap';

/** Feeds `text` in pieces of `size` bytes. */
function feed(text: string | Buffer, size: number): void {
  const bytes = Buffer.isBuffer(text) ? text : Buffer.from(text);
  const sizes = new CsvRowSizes();
  for (let at = 0; at < bytes.length; at += size) sizes.check(bytes.subarray(at, at + size));
}

describe('CsvRowSizes', () => {
  it('lets rows within the cap pass, quoted newlines and doubled quotes included, however cut', () => {
    const csv = 'a,"b\n""c""\n",d\n1,2,3\n"",,\n';
    for (let size = 1; size <= csv.length; size++) expect(() => feed(csv, size)).not.toThrow();
  });

  it('refuses a row past the cap, also one whose value holds newlines', () => {
    const wide = 'x'.repeat(QUERY_MAX_ROW_BYTES + 1);
    expect(() => feed(`1,${wide}\n`, 65_536)).toThrow(RowTooLarge);
    const lines = `1,"${'x\n'.repeat(QUERY_MAX_ROW_BYTES / 2 + 1)}"\n`;
    expect(() => feed(lines, 65_536)).toThrow(RowTooLarge);
    const quotes = `1,"${'""\n'.repeat(QUERY_MAX_ROW_BYTES / 3 + 1)}"\n`;
    expect(() => feed(quotes, 65_536)).toThrow(RowTooLarge);
  });

  it('counts each row on its own', () => {
    const half = 'x'.repeat(QUERY_MAX_ROW_BYTES / 2);
    expect(() => feed(`${half}\n"${half}"\n${half}\n`, 65_536)).not.toThrow();
  });
});
