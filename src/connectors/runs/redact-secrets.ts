/** What a masked credential reads as. */
export const MASK = '***';

/**
 * Values shorter than this are not looked for: two or three characters occur in ordinary text
 * too often to tell a credential from a word, and are no secret worth the name.
 */
export const MIN_SECRET_LENGTH = 4;

/** Letters, digits and underscores of any script: what a word (a token) is made of. */
const WORD = /[\p{L}\p{N}_]/u;

const isWord = (char: string | undefined) => char !== undefined && WORD.test(char);

/**
 * The stretches of base64 that encode `secret` wherever it sits in a longer encoded text (a
 * Basic header encodes `user:password`): one per alignment, leaving out the characters that
 * also carry the neighbouring bytes.
 */
function base64Forms(secret: string): string[] {
  const bytes = Buffer.from(secret);
  const forms: string[] = [];
  for (let shift = 0; shift < 3; shift++) {
    const encoded = Buffer.concat([Buffer.alloc(shift), bytes])
      .toString('base64')
      .replace(/=+$/, '');
    const start = shift === 0 ? 0 : Math.ceil((shift * 8) / 6);
    const end = Math.floor(((shift + bytes.length) * 8) / 6);
    const core = encoded.slice(start, end);
    if (core.length >= MIN_SECRET_LENGTH) forms.push(core, core.replace(/\+/g, '-').replace(/\//g, '_'));
  }
  return forms;
}

/** How a credential can show in a message: as typed, URL- or form-encoded, or base64-encoded. */
function formsOf(secret: string): string[] {
  const encoded = encodeURIComponent(secret);
  return [
    ...new Set([
      secret,
      encoded,
      encoded.replace(/%20/g, '+'),
      encoded.replace(/%[0-9A-F]{2}/g, (escape) => escape.toLowerCase()),
      ...base64Forms(secret),
    ]),
  ];
}

/**
 * Masks credentials in a message (an upstream's error, a request URL) before it is shown, logged
 * or kept. A credential standing as a token of its own becomes `***`. One found inside a longer
 * word masks that whole word: `***set` for a password "data" in "dataset" would tell where the
 * password starts and ends, while the whole word masked tells nothing. So no credential of
 * MIN_SECRET_LENGTH or more ever remains, in any of its forms, and words that do not contain one
 * are left as they are.
 */
export function redactSecrets(text: string, secrets: Iterable<string>): string {
  const forms = [...new Set([...secrets].filter((secret) => secret.length >= MIN_SECRET_LENGTH))].flatMap(
    formsOf,
  );
  if (forms.length === 0) return text;
  let clean = text;
  // Each pass shortens the text (a mask is shorter than what it covers), so this ends; a second
  // pass is needed only when a mask beside other characters formed a credential again.
  for (;;) {
    const spans = occurrences(clean, forms).map(([start, end]) => widenToWord(clean, start, end));
    if (spans.length === 0) return clean;
    clean = masked(clean, spans);
  }
}

/** What a run's messages must not show: the credentials it was given and the tokens it obtained. */
export function secretsOfRun(authData: Record<string, string>, obtainedTokens: Iterable<string>): string[] {
  return [...Object.values(authData), ...obtainedTokens];
}

function occurrences(text: string, forms: string[]): Array<[number, number]> {
  const found: Array<[number, number]> = [];
  for (const form of forms) {
    for (let at = text.indexOf(form); at !== -1; at = text.indexOf(form, at + 1)) {
      found.push([at, at + form.length]);
    }
  }
  return found;
}

function widenToWord(text: string, start: number, end: number): [number, number] {
  let from = start;
  let to = end;
  while (isWord(text[from - 1]) && isWord(text[from])) from--;
  while (isWord(text[to]) && isWord(text[to - 1])) to++;
  return [from, to];
}

/** The text with each span (overlapping ones merged) replaced by one mask. */
function masked(text: string, spans: Array<[number, number]>): string {
  const sorted = spans.sort((a, b) => a[0] - b[0]);
  let result = '';
  let cursor = 0;
  let index = 0;
  while (index < sorted.length) {
    const start = sorted[index][0];
    let end = sorted[index][1];
    while (index + 1 < sorted.length && sorted[index + 1][0] <= end) end = Math.max(end, sorted[++index][1]);
    result += text.slice(cursor, start) + MASK;
    cursor = end;
    index++;
  }
  return result + text.slice(cursor);
}
