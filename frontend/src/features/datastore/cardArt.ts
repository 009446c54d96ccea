/**
 * The art of a card without its own image: a gradient in its category's colours, so the
 * catalogue is not a wall of identical placeholders. The same category always gets the same pair.
 */
const GRADIENTS: ReadonlyArray<readonly [string, string]> = [
  ['#3f51b5', '#6573c3'],
  ['#00897b', '#26a69a'],
  ['#6a1b9a', '#9c4dcc'],
  ['#c62828', '#ef5350'],
  ['#ef6c00', '#ffa040'],
  ['#2e7d32', '#60ad5e'],
  ['#0277bd', '#58a5f0'],
  ['#4e342e', '#7b5e57'],
  ['#ad1457', '#e35183'],
  ['#37474f', '#62727b'],
];

function hashOf(text: string): number {
  let hash = 0;
  for (const character of text.trim().toLowerCase()) hash = (hash * 31 + character.charCodeAt(0)) >>> 0;
  return hash;
}

export function categoryGradient(category: string): string {
  const [from, to] = GRADIENTS[hashOf(category || 'none') % GRADIENTS.length];
  return `linear-gradient(135deg, ${from}, ${to})`;
}
