import { QUERY_MAX_ROW_BYTES, RowTooLarge } from './row-size-cap';

/** Signature (11 bytes) and flags (4) of a binary COPY, before its header extension's length. */
const HEADER_BEFORE_EXTENSION = 15;

type Part = 'header' | 'extensionLength' | 'extension' | 'fieldCount' | 'fieldLength' | 'value' | 'done';

/**
 * Follows the framing of a binary COPY as its chunks pass to a typed file's writer and fails once
 * a row passes QUERY_MAX_ROW_BYTES, before the writer gathers that row whole in memory. Only the
 * counts and lengths are read; values are skipped over, so the cost is a few steps per field.
 */
export class BinaryRowSizes {
  private part: Part = 'header';
  /** Bytes of the current part still to come. */
  private left = HEADER_BEFORE_EXTENSION;
  /** The number being read (a count or a length), big-endian, across chunks. */
  private number = 0;
  private fieldsLeft = 0;
  private rowBytes = 0;

  /** Reads the framing in `chunk`; throws RowTooLarge once a row is past the cap. */
  check(chunk: Buffer): void {
    let at = 0;
    while (at < chunk.length && this.part !== 'done') {
      const take = Math.min(this.left, chunk.length - at);
      if (this.part === 'fieldLength' || this.part === 'fieldCount' || this.part === 'extensionLength')
        for (let index = at; index < at + take; index++) this.number = this.number * 256 + chunk[index];
      at += take;
      this.left -= take;
      this.rowBytes += take;
      if (this.rowBytes > QUERY_MAX_ROW_BYTES) throw new RowTooLarge();
      if (this.left === 0) this.next();
    }
  }

  /** The part after the one just read. */
  private next(): void {
    const number = this.number;
    this.number = 0;
    switch (this.part) {
      case 'header':
        return this.expect('extensionLength', 4);
      case 'extensionLength':
        return number > 0 ? this.expect('extension', number) : this.startRow();
      case 'extension':
        return this.startRow();
      case 'fieldCount':
        // -1 (0xffff) is the trailer.
        if (number === 0xffff) return void (this.part = 'done');
        this.fieldsLeft = number;
        return this.nextField();
      case 'fieldLength':
        // -1 (0xffffffff) is NULL, with no bytes after it.
        return number === 0xffffffff || number === 0 ? this.nextField() : this.expect('value', number);
      case 'value':
        return this.nextField();
    }
  }

  private startRow(): void {
    this.rowBytes = 0;
    this.expect('fieldCount', 2);
  }

  private nextField(): void {
    if (this.fieldsLeft === 0) return this.startRow();
    this.fieldsLeft -= 1;
    this.expect('fieldLength', 4);
  }

  private expect(part: Part, bytes: number): void {
    this.part = part;
    this.left = bytes;
  }
}
