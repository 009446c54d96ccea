import { QUERY_MAX_ROW_BYTES, RowTooLarge } from './row-size-cap';

const NEWLINE = 0x0a;

/**
 * Follows COPY's CSV as its pieces pass and fails once a line passes QUERY_MAX_ROW_BYTES, so a
 * CSV answer is held to the same cap as the other formats. The pieces are relayed, never gathered,
 * so the cap costs nothing here but the rule: it is kept per line, which needs two native look-ups
 * a piece, where following quotes to find rows took a step per quote (a tenth of the time of a
 * CSV answer whose rows hold quoted text). A row is one line unless a value holds a line break.
 */
export class CsvLineSizes {
  private lineBytes = 0;

  /** Reads the lines in `piece`; throws RowTooLarge once a line is past the cap. */
  check(piece: Buffer): void {
    const first = piece.indexOf(NEWLINE);
    if (first === -1) return this.grow(piece.length);
    this.grow(first + 1);
    // Lines whole within a piece can be past the cap only in a piece past it.
    if (piece.length > QUERY_MAX_ROW_BYTES)
      for (
        let end = first, next = piece.indexOf(NEWLINE, end + 1);
        next !== -1;
        end = next, next = piece.indexOf(NEWLINE, end + 1)
      )
        if (next - end > QUERY_MAX_ROW_BYTES) throw new RowTooLarge();
    this.lineBytes = 0;
    this.grow(piece.length - piece.lastIndexOf(NEWLINE) - 1);
  }

  private grow(bytes: number): void {
    this.lineBytes += bytes;
    if (this.lineBytes > QUERY_MAX_ROW_BYTES) throw new RowTooLarge();
  }
}
