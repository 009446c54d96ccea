import { QUERY_MAX_ROW_BYTES, RowTooLarge } from './row-size-cap';

const QUOTE = 0x22;
const NEWLINE = 0x0a;

/**
 * Follows COPY's CSV as its pieces pass and fails once a row passes QUERY_MAX_ROW_BYTES, so a CSV
 * answer has the same cap as every other format. The pieces are relayed, never gathered, so this
 * is only about the rule: a row ends at a newline outside quotes, and a doubled quote inside a
 * quoted value closes and reopens it, which keeps the count right. Only quotes and newlines are
 * looked for (natively), so the cost is a step per row and per quoted value.
 */
export class CsvRowSizes {
  private quoted = false;
  private rowBytes = 0;

  /** Reads the rows in `piece`; throws RowTooLarge once a row is past the cap. */
  check(piece: Buffer): void {
    let at = 0;
    let quote = piece.indexOf(QUOTE, at);
    // Most pieces hold no quote at all: then only the first and the last newline matter (rows
    // between them lie within the piece, so they are within the cap when the piece is).
    if (quote === -1 && !this.quoted && piece.length <= QUERY_MAX_ROW_BYTES) return this.checkUnquoted(piece);
    /** The next newline at or after `at`; -1 when there is none left, -2 when not looked for yet. */
    let newline = -2;
    while (at < piece.length) {
      if (this.quoted) {
        const end = quote === -1 ? piece.length : quote + 1;
        this.grow(end - at);
        if (quote === -1) return;
        at = end;
        this.quoted = false;
        quote = piece.indexOf(QUOTE, at);
        continue;
      }
      if (newline !== -1 && newline < at) newline = piece.indexOf(NEWLINE, at);
      if (newline !== -1 && (quote === -1 || newline < quote)) {
        this.grow(newline + 1 - at);
        this.rowBytes = 0;
        at = newline + 1;
        continue;
      }
      const end = quote === -1 ? piece.length : quote + 1;
      this.grow(end - at);
      if (quote === -1) return;
      at = end;
      this.quoted = true;
      quote = piece.indexOf(QUOTE, at);
    }
  }

  private checkUnquoted(piece: Buffer): void {
    const first = piece.indexOf(NEWLINE);
    if (first === -1) return this.grow(piece.length);
    this.grow(first + 1);
    const last = piece.lastIndexOf(NEWLINE);
    this.rowBytes = 0;
    this.grow(piece.length - last - 1);
  }

  private grow(bytes: number): void {
    this.rowBytes += bytes;
    if (this.rowBytes > QUERY_MAX_ROW_BYTES) throw new RowTooLarge();
  }
}
