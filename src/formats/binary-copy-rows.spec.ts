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

  it('reads wide rows cut into many chunks, single wide fields and many wide ones, and the rows after them', () => {
    const wide = [
      ['a'.repeat(3_000_000), 'b'],
      Array.from({ length: 2 }, (_, index) => String(index).repeat(700_000)),
      ['c', null],
    ];
    const whole = binaryCopy(wide);
    for (const size of [4096, 65_536, 1_000_003]) {
      const chunks = [];
      for (let at = 0; at < whole.length; at += size) chunks.push(whole.subarray(at, at + size));
      expect(readAll(chunks, 2)).toEqual({ rows: wide, complete: true });
    }
    const manyFields = [Array.from({ length: 300 }, (_, index) => String(index % 10).repeat(20_000))];
    const cut = binaryCopy(manyFields);
    const chunks = [];
    for (let at = 0; at < cut.length; at += 8192) chunks.push(cut.subarray(at, at + 8192));
    expect(readAll(chunks, 300)).toEqual({ rows: manyFields, complete: true });
  });

  it('joins a wide value once, not once per chunk', () => {
    const whole = binaryCopy([['x'.repeat(16 * 1024 * 1024)]]);
    const chunks = [];
    for (let at = 0; at < whole.length; at += 65_536) chunks.push(whole.subarray(at, at + 65_536));
    const concat = jest.spyOn(Buffer, 'concat');
    try {
      readAll(chunks, 1);
      const copied = concat.mock.calls.reduce(
        (sum, [parts]) => sum + (parts as Buffer[]).reduce((bytes, part) => bytes + part.length, 0),
        0,
      );
      expect(copied).toBeLessThan(4 * whole.length);
    } finally {
      concat.mockRestore();
    }
  });
});
