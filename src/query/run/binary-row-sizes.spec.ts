import { BinaryRowSizes } from './binary-row-sizes';
import { QUERY_MAX_ROW_BYTES, RowTooLarge } from './row-size-cap';

/** A binary COPY answer with a header extension, of rows given as field sizes (-1 for NULL). */
function binaryCopy(rows: number[][]): Buffer[] {
  const parts = [Buffer.from('PGCOPY\n\xff\r\n\0', 'latin1'), Buffer.from([0, 0, 0, 0, 0, 0, 0, 3, 1, 2, 3])];
  for (const row of rows) {
    const count = Buffer.alloc(2);
    count.writeInt16BE(row.length);
    parts.push(count);
    for (const size of row) {
      const length = Buffer.alloc(4);
      length.writeInt32BE(size);
      parts.push(length);
      if (size > 0) parts.push(Buffer.alloc(size, 0xff));
    }
  }
  parts.push(Buffer.from([0xff, 0xff]));
  return parts;
}

describe('BinaryRowSizes', () => {
  it('lets rows within the cap pass, whatever byte the chunks are cut at', () => {
    const whole = Buffer.concat(
      binaryCopy([
        [3, -1, 0],
        [-1, -1, 5],
        [1, 2, 3],
      ]),
    );
    for (let cut = 1; cut < whole.length; cut++) {
      const sizes = new BinaryRowSizes();
      sizes.check(whole.subarray(0, cut));
      sizes.check(whole.subarray(cut));
    }
  });

  it('refuses a row past the cap, of one value or of many', () => {
    for (const row of [[QUERY_MAX_ROW_BYTES], [4, ...Array(17).fill(1024 * 1024)]]) {
      const sizes = new BinaryRowSizes();
      expect(() => binaryCopy([[1], row]).forEach((part) => sizes.check(part))).toThrow(RowTooLarge);
    }
  });

  it('counts each row on its own', () => {
    const sizes = new BinaryRowSizes();
    const half = QUERY_MAX_ROW_BYTES / 2;
    for (const part of binaryCopy([[half], [half], [half]])) sizes.check(part);
  });
});
