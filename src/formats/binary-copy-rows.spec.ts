import { BinaryCopyRows } from './binary-copy-rows';

/** A binary COPY answer of text fields (null for NULL), as Postgres frames it. */
function binaryCopy(rows: Array<Array<string | null>>): Buffer {
  const parts = [Buffer.from('PGCOPY\n\xff\r\n\0', 'latin1'), Buffer.alloc(8)];
  for (const row of rows) {
    const count = Buffer.alloc(2);
    count.writeInt16BE(row.length);
    parts.push(count);
    for (const field of row) {
      const length = Buffer.alloc(4);
      length.writeInt32BE(field === null ? -1 : Buffer.byteLength(field));
      parts.push(length);
      if (field !== null) parts.push(Buffer.from(field));
    }
  }
  parts.push(Buffer.from([0xff, 0xff]));
  return Buffer.concat(parts);
}

function readAll(
  chunks: Buffer[],
  columns: number,
): { rows: Array<Array<string | null>>; complete: boolean } {
  const rows: Array<Array<string | null>> = [];
  const reader = new BinaryCopyRows(columns, {
    row(buffer, starts, lengths) {
      rows.push(
        Array.from(lengths, (length, index) =>
          length < 0 ? null : buffer.toString('utf8', starts[index], starts[index] + length),
        ),
      );
    },
  });
  for (const chunk of chunks) reader.push(chunk);
  return { rows, complete: reader.complete };
}

describe('BinaryCopyRows', () => {
  const rows = [
    ['ünïcödé 😀', ''],
    [null, 'x'],
    ['last', null],
  ];

  it('reads every row with "" and NULL apart', () => {
    expect(readAll([binaryCopy(rows)], 2)).toEqual({ rows, complete: true });
  });

  it('reads the same rows whatever byte the chunks are cut at', () => {
    const whole = binaryCopy(rows);
    for (let cut = 1; cut < whole.length; cut++) {
      expect(readAll([whole.subarray(0, cut), whole.subarray(cut)], 2)).toEqual({ rows, complete: true });
    }
  });

  it('reads the same rows from one-byte chunks', () => {
    const whole = binaryCopy(rows);
    const bytes = Array.from({ length: whole.length }, (_, index) => whole.subarray(index, index + 1));
    expect(readAll(bytes, 2)).toEqual({ rows, complete: true });
  });

  it('knows a copy cut short from a complete one', () => {
    const whole = binaryCopy(rows);
    expect(readAll([whole.subarray(0, whole.length - 2)], 2).complete).toBe(false);
  });
});
