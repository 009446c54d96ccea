const QUOTE = 0x22;
const NEWLINE = 0x0a;

/**
 * Counts the records of CSV as COPY writes it, chunk by chunk: a newline ends a record unless it
 * stands inside quotes. A doubled quote inside a quoted value leaves and enters the quotes again,
 * which counts the same.
 */
export class CsvRecords {
  private quoted = false;

  /**
   * Scans `chunk` for at most `wanted` record ends: answers how many it found and where the scan
   * stopped (just after the last of them when all were found, else the chunk's end).
   */
  scan(chunk: Buffer, wanted: number): { records: number; end: number } {
    let records = 0;
    let at = 0;
    let quote = chunk.indexOf(QUOTE, at);
    while (records < wanted) {
      if (this.quoted) {
        if (quote < 0) return { records, end: chunk.length };
        this.quoted = false;
        at = quote + 1;
        quote = chunk.indexOf(QUOTE, at);
        continue;
      }
      const newline = chunk.indexOf(NEWLINE, at);
      if (quote >= 0 && (newline < 0 || quote < newline)) {
        this.quoted = true;
        at = quote + 1;
        quote = chunk.indexOf(QUOTE, at);
        continue;
      }
      if (newline < 0) return { records, end: chunk.length };
      records += 1;
      at = newline + 1;
    }
    return { records, end: at };
  }
}
