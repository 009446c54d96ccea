/**
 * Guards are added to a statement by inserting text around parts of it (an aggregate's argument,
 * a whole call), never by printing a parse tree back: what the user wrote stays as written, and
 * every error position can be mapped back to it.
 */
export interface Insertion {
  /** Character index in the statement where the text goes. */
  at: number;
  text: string;
  /** An opening goes before what it wraps, a closing after it. */
  side: 'open' | 'close';
  /** Characters of what it wraps: where two wraps meet, the wider one stands outside. */
  width: number;
  /** Of two wraps around the same text, the lower layer stands outside. */
  layer: number;
}

/** An opening and a closing around `start`…`end`. */
export function wrap(start: number, end: number, open: string, close: string, layer: number): Insertion[] {
  const width = end - start;
  return [
    { at: start, text: open, side: 'open', width, layer },
    { at: end, text: close, side: 'close', width, layer },
  ];
}

/** Character indexes of ascending byte offsets into `text` (the parser counts UTF-8 bytes), in one pass. */
export function characterIndexes(text: string, byteOffsets: number[]): number[] {
  const indexes: number[] = [];
  let bytes = 0;
  let index = 0;
  for (const offset of byteOffsets) {
    while (bytes < offset && index < text.length) {
      const code = text.codePointAt(index)!;
      bytes += code < 0x80 ? 1 : code < 0x800 ? 2 : code < 0x10000 ? 3 : 4;
      index += code >= 0x10000 ? 2 : 1;
    }
    indexes.push(index);
  }
  return indexes;
}

/** Closings before openings at one place; the outer opening first, the inner closing first. */
function order(first: Insertion, second: Insertion): number {
  if (first.at !== second.at) return first.at - second.at;
  if (first.side !== second.side) return first.side === 'close' ? -1 : 1;
  const outerFirst = second.width - first.width || first.layer - second.layer;
  return first.side === 'open' ? outerFirst : -outerFirst;
}

/** The statement with the insertions made, and how a position in it maps back to the original. */
export function applyInsertions(
  sql: string,
  insertions: Insertion[],
): { sql: string; originalPosition: (position: number) => number } {
  const sorted = [...insertions].sort(order);
  let rewritten = '';
  let copied = 0;
  for (const { at, text } of sorted) {
    rewritten += sql.slice(copied, at) + text;
    copied = at;
  }
  rewritten += sql.slice(copied);
  const originalPosition = (position: number): number => {
    let shift = 0;
    for (const { at, text } of sorted) {
      const start = at + shift + 1;
      if (position < start) break;
      if (position < start + text.length) return at + 1;
      shift += text.length;
    }
    return position - shift;
  };
  return { sql: rewritten, originalPosition };
}
