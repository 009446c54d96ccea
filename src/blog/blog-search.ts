/** Words of a search box query; at most a handful, so one request cannot build a huge query. */
const MAX_SEARCH_WORDS = 8;

/**
 * A to_tsquery('simple', ...) text that matches posts containing every word of the search,
 * each as a prefix ("pow bi" finds "Power BI"). Only letters and digits reach the query syntax,
 * so no user input can form operators. Undefined when the search holds no word.
 */
export function prefixTsQuery(search: string): string | undefined {
  const words = search
    .toLowerCase()
    .match(/[\p{L}\p{N}]+/gu)
    ?.slice(0, MAX_SEARCH_WORDS);
  return words && words.length > 0 ? words.map((word) => `${word}:*`).join(' & ') : undefined;
}

/** An ILIKE pattern finding the search anywhere in a title, with LIKE's wildcards taken literally. */
export function containsPattern(search: string): string {
  return `%${search.replace(/[\\%_]/g, (character) => `\\${character}`)}%`;
}

const ENTITIES: Record<string, string> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  nbsp: ' ',
  '#39': "'",
};

/** Plain-text teaser of a post's sanitised HTML for the list, cut at a word boundary. */
export function excerptOf(text: string, maxLength = 200): string {
  const plain = text
    .replace(/&(amp|lt|gt|quot|apos|nbsp|#39);/g, (_match, name: string) => ENTITIES[name])
    .replace(/\s+/g, ' ')
    .trim();
  if (plain.length <= maxLength) return plain;
  const cut = plain.slice(0, maxLength);
  const lastSpace = cut.lastIndexOf(' ');
  return `${(lastSpace > maxLength / 2 ? cut.slice(0, lastSpace) : cut).replace(/[\s,.;:]+$/, '')}…`;
}
