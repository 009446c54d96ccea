import { sqlName } from './queryRules';

/**
 * Completion of bare column names in the SQL workspace: @codemirror/lang-sql completes columns
 * only after `table.`, so a bare word would be offered keywords and table names alone. The
 * columns of the tables the statement reads from (FROM and JOIN) are what a user means there.
 */

export interface ColumnOption {
  label: string;
  type: 'property';
  /** The table the column belongs to. */
  detail: string;
  /** Written into the editor: the name quoted where SQL would otherwise misread it. */
  apply?: string;
  /** Above lang-sql's table names (0) and keywords (-1). */
  boost: number;
}

export interface ColumnCompletion {
  from: number;
  options: ColumnOption[];
}

const COLUMN_BOOST = 5;

/**
 * The statement's text with string literals and comments blanked out (same length, so positions
 * hold; quoted identifiers stay, they name tables), and whether `sql` ends inside a literal,
 * a quoted identifier or a comment.
 */
function maskLiterals(sql: string): { masked: string; endsInside: boolean } {
  let masked = '';
  let closing: string | null = null;
  for (let index = 0; index < sql.length; index++) {
    const character = sql[index];
    if (closing) {
      if (sql.startsWith(closing, index)) {
        masked += closing;
        index += closing.length - 1;
        closing = null;
      } else masked += closing === '"' || character === '\n' ? character : ' ';
      continue;
    }
    if (character === "'") closing = "'";
    else if (character === '"') closing = '"';
    else if (sql.startsWith('--', index)) closing = '\n';
    else if (sql.startsWith('/*', index)) closing = '*/';
    masked += character;
  }
  return { masked, endsInside: closing !== null };
}

/** The statement around `position`: from the `;` before it to the `;` after it. */
function statementAround(masked: string, position: number): { start: number; end: number } {
  const start = masked.lastIndexOf(';', position - 1) + 1;
  const next = masked.indexOf(';', position);
  return { start, end: next < 0 ? masked.length : next };
}

const NAME = /\s*("(?:[^"]|"")*"|[A-Za-z_][\w$]*)/y;
const DOT = /\s*\./y;
const ALIAS = /\s+(?:as\s+)?(?:"(?:[^"]|"")*"|[A-Za-z_][\w$]*)/iy;
const COMMA = /\s*,/y;

function readName(text: string, position: number): { name: string; end: number } | null {
  NAME.lastIndex = position;
  const match = NAME.exec(text);
  if (!match) return null;
  const raw = match[1];
  // SQL folds unquoted names to lower case; quoted ones are taken as written.
  const name = raw.startsWith('"') ? raw.slice(1, -1).replaceAll('""', '"') : raw.toLowerCase();
  return { name, end: NAME.lastIndex };
}

/** The table named at `position`, schema-qualified or not: its own name. */
function readTable(text: string, position: number): { name: string; end: number } | null {
  let table = readName(text, position);
  while (table) {
    DOT.lastIndex = table.end;
    if (!DOT.exec(text)) return table;
    const next = readName(text, DOT.lastIndex);
    if (!next) return table;
    table = next;
  }
  return null;
}

/** Names of the tables a statement reads from: each one after FROM or JOIN, and comma lists after FROM. */
export function tablesInStatement(sql: string, position = sql.length): string[] {
  const { masked } = maskLiterals(sql);
  const { start, end } = statementAround(masked, position);
  const statement = masked.slice(start, end);
  const names: string[] = [];
  const keyword = /\b(?:from|join)\b/gi;
  for (let match = keyword.exec(statement); match; match = keyword.exec(statement)) {
    let table = readTable(statement, keyword.lastIndex);
    while (table) {
      names.push(table.name);
      ALIAS.lastIndex = table.end;
      let after = ALIAS.exec(statement) ? ALIAS.lastIndex : table.end;
      COMMA.lastIndex = after;
      if (!COMMA.exec(statement)) break;
      after = COMMA.lastIndex;
      table = readTable(statement, after);
    }
  }
  return [...new Set(names)];
}

/**
 * What to offer for a bare word at `position` (in `doc`): the columns of the statement's tables
 * the caller holds, ranked before keywords; null after `table.`, inside a literal or comment,
 * right where a table name is expected, or when the statement names no known table.
 */
export function bareColumnCompletion(
  doc: string,
  position: number,
  schema: Record<string, string[]>,
  explicit = false,
): ColumnCompletion | null {
  const before = doc.slice(0, position);
  const word = /[A-Za-z_][\w$]*$/.exec(before);
  if (!word && !explicit) return null;
  const from = position - (word?.[0].length ?? 0);
  const { masked, endsInside } = maskLiterals(doc.slice(0, from));
  if (endsInside || /\.\s*$/.test(masked)) return null;
  if (/\b(?:from|join|into|update|table)\s*$/i.test(masked)) return null;
  const options: ColumnOption[] = [];
  const seen = new Set<string>();
  for (const table of tablesInStatement(doc, position)) {
    for (const column of schema[table] ?? []) {
      if (seen.has(column)) continue;
      seen.add(column);
      const quoted = sqlName(column);
      options.push({
        label: column,
        type: 'property',
        detail: table,
        boost: COLUMN_BOOST,
        ...(quoted === column ? {} : { apply: quoted }),
      });
    }
  }
  return options.length > 0 ? { from, options } : null;
}
