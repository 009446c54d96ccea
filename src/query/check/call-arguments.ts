/**
 * Where each argument of a function call stands in the query text. PostgreSQL's parser (as
 * libpg-query gives it) tells where a call starts but not where its arguments end, so the text is
 * read here token by token: enough of PostgreSQL's lexer to never take a parenthesis or comma
 * inside a string, quoted name, dollar quote or comment for one that separates arguments. The
 * query was parsed by PostgreSQL before; whatever is built from these spans is parsed and checked
 * again, so a span read wrongly refuses the query rather than letting anything through.
 */

/** Start (inclusive) and end (exclusive), in characters of the text. */
export interface Span {
  start: number;
  end: number;
}

type TokenKind = 'blank' | 'word' | 'other';

interface Token {
  kind: TokenKind;
  end: number;
}

const WORD_START = /[A-Za-z_\u0080-\uffff]/;
const WORD_PART = /[A-Za-z0-9_$\u0080-\uffff]/;
const DOLLAR_TAG = /\$(?:[A-Za-z_\u0080-\uffff][A-Za-z0-9_\u0080-\uffff]*)?\$/y;

/** The end of a quoted run opened at `start` whose quote is doubled inside (strings, names). */
function quotedEnd(text: string, start: number, quote: string, backslashEscapes: boolean): number {
  let at = start + 1;
  while (at < text.length) {
    const char = text[at];
    if (backslashEscapes && char === '\\') at += 2;
    else if (char === quote && text[at + 1] === quote) at += 2;
    else if (char === quote) return at + 1;
    else at += 1;
  }
  return text.length;
}

/** The end of a block comment opened at `start`; PostgreSQL's nest. */
function blockCommentEnd(text: string, start: number): number {
  let depth = 0;
  let at = start;
  while (at < text.length) {
    if (text.startsWith('/*', at)) {
      depth += 1;
      at += 2;
    } else if (text.startsWith('*/', at)) {
      depth -= 1;
      at += 2;
      if (depth === 0) return at;
    } else at += 1;
  }
  return text.length;
}

function tokenAt(text: string, at: number): Token {
  const char = text[at];
  if (/\s/.test(char)) {
    let end = at + 1;
    while (end < text.length && /\s/.test(text[end])) end += 1;
    return { kind: 'blank', end };
  }
  if (text.startsWith('--', at)) {
    const newline = text.indexOf('\n', at);
    return { kind: 'blank', end: newline < 0 ? text.length : newline + 1 };
  }
  if (text.startsWith('/*', at)) return { kind: 'blank', end: blockCommentEnd(text, at) };
  if (char === "'") return { kind: 'other', end: quotedEnd(text, at, "'", false) };
  if (char === '"') return { kind: 'other', end: quotedEnd(text, at, '"', false) };
  if (char === '$') {
    DOLLAR_TAG.lastIndex = at;
    const tag = DOLLAR_TAG.exec(text)?.[0];
    if (tag) {
      const close = text.indexOf(tag, at + tag.length);
      return { kind: 'other', end: close < 0 ? text.length : close + tag.length };
    }
    return { kind: 'other', end: at + 1 };
  }
  if (WORD_START.test(char)) {
    let end = at + 1;
    while (end < text.length && WORD_PART.test(text[end])) end += 1;
    // E'…' takes backslash escapes; B'…', X'…', N'…' and U&'…' are plain strings after a word.
    if (end - at === 1 && /[Ee]/.test(char) && text[end] === "'")
      return { kind: 'other', end: quotedEnd(text, end, "'", true) };
    return { kind: 'word', end };
  }
  return { kind: 'other', end: at + 1 };
}

/**
 * The spans of the arguments of the call whose name starts at `callStart`: without a leading
 * DISTINCT or ALL, and without the aggregate's ORDER BY. Undefined when the text does not read
 * as a call there.
 */
export function argumentSpans(text: string, callStart: number): Span[] | undefined {
  return callSpans(text, callStart)?.args;
}

/**
 * The spans of the call's arguments (as argumentSpans gives them), where its opening parenthesis
 * stands, and where the call ends: just after its closing parenthesis. Undefined when the text
 * does not read as a call there.
 */
export function callSpans(
  text: string,
  callStart: number,
): { args: Span[]; open: number; end: number } | undefined {
  let at = callStart;
  // The name, perhaps with a schema, up to the opening parenthesis.
  while (at < text.length && text[at] !== '(') {
    const token = tokenAt(text, at);
    if (token.kind === 'other' && !/^[".]/.test(text[at])) return undefined;
    at = token.end;
  }
  if (at >= text.length) return undefined;
  const open = at;
  at += 1;
  const spans: Span[] = [];
  let depth = 1;
  let current: Span | undefined;
  let ordering = false;
  let first = true;
  const close = () => {
    if (current) spans.push(current);
    current = undefined;
  };
  while (at < text.length) {
    const token = tokenAt(text, at);
    const word = token.kind === 'word' ? text.slice(at, token.end).toLowerCase() : undefined;
    const char = text[at];
    if (token.kind === 'blank') {
      at = token.end;
      continue;
    }
    if (depth === 1 && !ordering) {
      if (char === ',') {
        close();
        first = false;
        at = token.end;
        continue;
      }
      if (char === ')') {
        close();
        return { args: spans, open, end: token.end };
      }
      if (!current && first && spans.length === 0 && (word === 'distinct' || word === 'all')) {
        at = token.end;
        continue;
      }
      if (word === 'order' && current) {
        close();
        ordering = true;
        at = token.end;
        continue;
      }
    }
    if (char === '(' || char === '[') depth += 1;
    if (char === ')' || char === ']') {
      depth -= 1;
      if (depth === 0) return { args: spans, open, end: token.end };
    }
    if (!ordering) {
      if (current) current.end = token.end;
      else current = { start: at, end: token.end };
    }
    at = token.end;
  }
  return undefined;
}

/**
 * Where the bracketed constructor starting at `start` (`ARRAY[…]`, `ROW(…)` or a plain `(…)`)
 * ends: just after the bracket that closes its first one. Undefined when the text does not read
 * so there.
 */
export function constructorEnd(text: string, start: number): number | undefined {
  let at = start;
  let depth = 0;
  while (at < text.length) {
    const token = tokenAt(text, at);
    const char = text[at];
    if (token.kind === 'other') {
      if (char === '(' || char === '[') depth += 1;
      else if (char === ')' || char === ']') {
        depth -= 1;
        if (depth <= 0) return depth === 0 ? token.end : undefined;
      } else if (depth === 0) return undefined;
    }
    at = token.end;
  }
  return undefined;
}
