import { parse } from 'libpg-query';
import {
  AGGREGATE_GUARD,
  aggregateInsertions,
  constantBytes,
  VALUE_AGGREGATES,
  ValueAggregateCall,
} from './aggregate-guard';
import { ALLOWED_FUNCTIONS, GUARDED_FUNCTIONS, GUARDED_OPERATORS } from './allowed-functions';
import { checkFormatCall } from './format-widths';
import { QueryRefusal } from './query-refusal';
import { applyInsertions } from './text-insertions';
import { isAllowedCastType } from './type-casts';
import {
  ARRAY_ELEMENT,
  arraySubqueryInsertions,
  builderInsertions,
  constructorInsertions,
  VALUE_BUILDERS,
  VALUE_CAP,
  ValueBuilderCall,
} from './value-builders';

/** A table named in the query, where it stands in the text (in UTF-8 bytes, as the parser counts). */
export interface TableReference {
  name: string;
  byteOffset: number;
  hasAlias: boolean;
  /** `TABLE name` takes no alias. */
  inTableStatement: boolean;
}

export interface CheckedQuery {
  kind: 'select' | 'explain';
  /**
   * The statement alone: the query without a closing semicolon and what follows it, with the
   * arguments of value-building aggregates wrapped in their guard (aggregate-guard.ts) and the
   * calls of value builders in their cap (value-builders.ts).
   */
  text: string;
  tables: TableReference[];
  /** A position (1-based, in characters) in `text`, back in the query the user wrote. */
  originalPosition: (position: number) => number;
}

type Node = Record<string, unknown>;

/**
 * The expression and clause kinds a read may use. Every node of the parse tree must be one of
 * these (or a plain field structure inside one): a new or unusual construct is refused rather
 * than trusted.
 */
const ALLOWED_NODES = new Set([
  'SelectStmt',
  'ResTarget',
  'ColumnRef',
  'A_Star',
  'A_Const',
  'A_Expr',
  'A_Indirection',
  'A_Indices',
  'A_ArrayExpr',
  'BoolExpr',
  'FuncCall',
  'NamedArgExpr',
  'TypeCast',
  'RangeVar',
  'RangeSubselect',
  'RangeFunction',
  'JoinExpr',
  'SortBy',
  'WindowDef',
  'SubLink',
  'CaseExpr',
  'CaseWhen',
  'CoalesceExpr',
  'MinMaxExpr',
  'NullTest',
  'BooleanTest',
  'RowExpr',
  'List',
  'String',
  'Integer',
  'Float',
  'Boolean',
  'BitString',
  'CommonTableExpr',
  'GroupingSet',
  'GroupingFunc',
  'CollateClause',
  'SQLValueFunction',
  'TypeName',
]);

/** CURRENT_DATE and friends; not CURRENT_USER, SESSION_USER or CURRENT_SCHEMA, which name roles and schemas. */
const ALLOWED_VALUE_FUNCTIONS = new Set([
  'SVFOP_CURRENT_DATE',
  'SVFOP_CURRENT_TIME',
  'SVFOP_CURRENT_TIME_N',
  'SVFOP_CURRENT_TIMESTAMP',
  'SVFOP_CURRENT_TIMESTAMP_N',
  'SVFOP_LOCALTIME',
  'SVFOP_LOCALTIME_N',
  'SVFOP_LOCALTIMESTAMP',
  'SVFOP_LOCALTIMESTAMP_N',
]);

/** Clauses that turn a read into a write or a lock. */
const REFUSED_FIELDS: Record<string, string> = {
  intoClause: 'SELECT INTO creates a table: only reading queries are allowed',
  lockingClause: 'FOR UPDATE/SHARE locks rows: only reading queries are allowed',
};

function stringsOf(list: unknown): string[] {
  return Array.isArray(list)
    ? list.map((item) => String((item as { String?: { sval?: string } }).String?.sval ?? ''))
    : [];
}

/** Bytes to a 1-based character position, as PostgreSQL reports positions. */
function positionOf(sql: string, byteOffset: unknown): number | undefined {
  if (typeof byteOffset !== 'number' || byteOffset < 0) return undefined;
  return Buffer.from(sql, 'utf8').subarray(0, byteOffset).toString('utf8').length + 1;
}

/** Where the walk stands: inside a `TABLE name` statement or not, and the WITH names visible there. */
interface Scope {
  inTableStatement: boolean;
  ctes: ReadonlySet<string>;
}

const TOP: Scope = { inTableStatement: false, ctes: new Set() };

class TreeCheck {
  readonly tables: TableReference[] = [];
  readonly valueAggregates: ValueAggregateCall[] = [];
  readonly valueBuilders: ValueBuilderCall[] = [];
  /** Where each `ARRAY(subquery)` starts, in UTF-8 bytes. */
  readonly arraySubqueries: number[] = [];
  /** Where each row or array constructor to be capped starts, in UTF-8 bytes. */
  readonly constructors: number[] = [];
  /** Row constructors that a comparison, IN list or GROUP BY takes apart: they build no value. */
  private readonly rowOperands = new Set<unknown>();
  /** Once guarded: where the calls that the cap wraps stand, each to be found wrapped. */
  private readonly cappedCalls = new Set<unknown>();

  /** `guarded`: the statement as rewritten by checkGuarded, whose guard calls are ours. */
  constructor(
    private readonly sql: string,
    private readonly guarded: boolean,
  ) {}

  refuse(message: string, location?: unknown): never {
    throw new QueryRefusal(message, positionOf(this.sql, location));
  }

  /** Walks every value: wrapped nodes (`{Kind: {...}}`) are checked by kind, plain structures field by field. */
  walk(value: unknown, scope: Scope): void {
    if (Array.isArray(value)) {
      for (const item of value) this.walk(item, scope);
      return;
    }
    if (value === null || typeof value !== 'object') return;
    const keys = Object.keys(value);
    if (keys.length === 1 && /^[A-Z]/.test(keys[0])) {
      this.node(keys[0], (value as Node)[keys[0]] as Node, scope);
      return;
    }
    for (const key of keys) {
      if (key in REFUSED_FIELDS) this.refuse(REFUSED_FIELDS[key]);
      this.walk((value as Node)[key], scope);
    }
  }

  private node(kind: string, fields: Node, scope: Scope): void {
    if (!ALLOWED_NODES.has(kind)) this.refuse(`${kind} is not allowed in a query`, fields.location);
    switch (kind) {
      case 'SelectStmt':
        return this.select(fields, scope);
      case 'RangeVar':
        return this.rangeVar(fields, scope);
      case 'FuncCall':
        this.functionCall(fields);
        break;
      case 'TypeCast':
        this.typeCast(fields);
        break;
      case 'TypeName':
        this.typeName(fields, fields.location);
        break;
      case 'A_Expr':
        this.operator(fields.name, fields.location);
        this.noteRowOperands(fields.lexpr, fields.rexpr);
        break;
      case 'GroupingSet':
        this.noteRowOperands(fields.content);
        break;
      case 'RowExpr':
        if (!this.rowOperands.has(fields.location)) this.valueConstructor('ROW(…)', fields);
        break;
      case 'A_ArrayExpr':
        // ARRAY[…] as a whole: its inner […] are part of it, and ARRAY[] builds nothing.
        if (
          this.startsWithArray(fields.location) &&
          Array.isArray(fields.elements) &&
          fields.elements.length > 0
        )
          this.valueConstructor('ARRAY[…]', fields);
        break;
      case 'SubLink':
        this.operator(fields.operName, fields.location);
        this.noteRowOperands(fields.testexpr);
        if (fields.subLinkType === 'ARRAY_SUBLINK') this.arraySubquery(fields);
        break;
      case 'SQLValueFunction':
        if (!ALLOWED_VALUE_FUNCTIONS.has(String(fields.op)))
          this.refuse('This value function is not allowed in a query', fields.location);
        break;
      case 'CommonTableExpr':
        if (!isSelect(fields.ctequery))
          this.refuse(
            'Only SELECT may stand in a WITH clause: only reading queries are allowed',
            fields.location,
          );
        break;
    }
    this.walk(fields, scope);
  }

  /**
   * A WITH name hides a table of that name only where PostgreSQL sees it: in the rest of its
   * statement and its nested queries, and in later WITH entries (in every entry, itself too, when
   * RECURSIVE). Anywhere else the same name is looked up as a table, which with an empty search
   * path means the system catalogs (`pg_roles`, `pg_class`): such a name must be checked as a table.
   */
  private select(fields: Node, outer: Scope): void {
    const { withClause, ...rest } = fields;
    let ctes = outer.ctes;
    if (withClause) {
      const { ctes: entries, recursive, ...clause } = withClause as Node;
      const list = Array.isArray(entries) ? entries : [];
      const names = list.map((entry) =>
        String((entry as { CommonTableExpr?: Node }).CommonTableExpr?.ctename),
      );
      list.forEach((entry, index) => {
        const visible = recursive ? names : names.slice(0, index);
        this.walk(entry, { inTableStatement: false, ctes: new Set([...outer.ctes, ...visible]) });
      });
      this.walk(clause, outer);
      ctes = new Set([...outer.ctes, ...names]);
    }
    // The branches of a UNION/INTERSECT/EXCEPT are plain structures, not wrapped nodes, but
    // statements of their own all the same: each may have a WITH of its own.
    this.noteRowOperands(fields.groupClause);
    const { larg, rarg, ...own } = rest;
    for (const branch of [larg, rarg]) if (branch) this.select(branch as Node, { ...outer, ctes });
    this.walk(own, { inTableStatement: isTableStatement(fields), ctes });
  }

  private rangeVar(fields: Node, scope: Scope): void {
    if (fields.schemaname || fields.catalogname)
      this.refuse('Name tables without a schema: your tables are listed beside the editor', fields.location);
    if (typeof fields.location !== 'number' || fields.location < 0)
      this.refuse('Unsupported table reference');
    if (!scope.ctes.has(String(fields.relname)))
      this.tables.push({
        name: String(fields.relname),
        byteOffset: fields.location,
        hasAlias: fields.alias !== undefined,
        inTableStatement: scope.inTableStatement,
      });
    if (fields.alias) this.walk(fields.alias, scope);
  }

  private functionCall(fields: Node): void {
    const name = stringsOf(fields.funcname);
    const [schema, functionName] = name.length === 2 ? name : [undefined, name[0]];
    if (name.join('.') === AGGREGATE_GUARD.join('.') || name.join('.') === VALUE_CAP.join('.')) {
      // The user's own call could count negative bytes.
      if (!this.guarded) this.refuse(`function ${name.join('.')} is not allowed in a query`, fields.location);
      const [wrapped] = (fields.args as Node[] | undefined) ?? [];
      const inner = wrapped && (Object.values(wrapped)[0] as Node | undefined);
      if (name.join('.') === VALUE_CAP.join('.') && inner && typeof inner === 'object')
        this.cappedCalls.add(inner.location);
      return;
    }
    if (
      name.length > 2 ||
      (schema !== undefined && schema !== 'pg_catalog') ||
      !ALLOWED_FUNCTIONS.has(functionName)
    )
      this.refuse(`function ${name.join('.')} is not allowed in a query`, fields.location);
    if (schema !== undefined && GUARDED_FUNCTIONS.has(functionName))
      this.refuse(`call ${functionName} without a schema`, fields.location);
    if (functionName === 'format') checkFormatCall(fields.args, positionOf(this.sql, fields.location));
    if (VALUE_AGGREGATES.has(functionName)) this.valueAggregate(functionName, fields);
    if (VALUE_BUILDERS.has(functionName)) this.valueBuilder(functionName, fields);
  }

  /** Row constructors among these operands (or in these lists) are compared or grouped, not built. */
  private noteRowOperands(...operands: unknown[]): void {
    for (const operand of operands) {
      if (Array.isArray(operand)) this.noteRowOperands(...operand);
      else if (operand && typeof operand === 'object') {
        const node = operand as Node;
        if (node.RowExpr) this.rowOperands.add((node.RowExpr as Node).location);
        if (node.List) this.noteRowOperands((node.List as Node).items);
      }
    }
  }

  private startsWithArray(location: unknown): boolean {
    const position = positionOf(this.sql, location);
    return position !== undefined && /^array\b/i.test(this.sql.slice(position - 1, position + 5));
  }

  /** A row or array constructor: noted to be capped, or (once guarded) seen to stand inside the cap. */
  private valueConstructor(shown: string, fields: Node): void {
    if (!this.guarded) this.constructors.push(fields.location as number);
    else if (!this.cappedCalls.has(fields.location))
      this.refuse(`write this ${shown} more plainly`, fields.location);
  }

  /** An `ARRAY(subquery)`: noted to have its elements counted, or (once guarded) seen to have them counted. */
  private arraySubquery(fields: Node): void {
    if (!this.guarded) {
      this.arraySubqueries.push(fields.location as number);
      return;
    }
    const select = ((fields.subselect as Node).SelectStmt as Node | undefined) ?? {};
    const targets = (select.targetList as Array<{ ResTarget?: Node }> | undefined) ?? [];
    const counted = targets[0]?.ResTarget?.val as Node | undefined;
    const call = counted?.FuncCall as Node | undefined;
    const argument = ((call?.args as Node[] | undefined) ?? [])[0]?.ColumnRef as Node | undefined;
    if (
      targets.length !== 1 ||
      stringsOf(call?.funcname).join('.') !== AGGREGATE_GUARD.join('.') ||
      stringsOf(argument?.fields).join('.') !== ARRAY_ELEMENT.join('.')
    )
      this.refuse('write this ARRAY(SELECT …) more plainly', fields.location);
  }

  /** A value builder: noted to be capped, or (once guarded) seen to stand inside the cap. */
  private valueBuilder(name: string, fields: Node): void {
    if (!this.guarded) this.valueBuilders.push({ name, byteOffset: fields.location as number });
    else if (!this.cappedCalls.has(fields.location))
      this.refuse(`write this call of ${name} more plainly`, fields.location);
  }

  /** A value aggregate: noted to be guarded, or (once guarded) seen to have every computed argument counted. */
  private valueAggregate(name: string, fields: Node): void {
    const args = (fields.args as Node[] | undefined) ?? [];
    if (!this.guarded) {
      this.valueAggregates.push({ name, byteOffset: fields.location as number, args });
      return;
    }
    const isGuard = (argument: Node) =>
      stringsOf((argument.FuncCall as Node | undefined)?.funcname).join('.') === AGGREGATE_GUARD.join('.');
    if (
      !args.some(isGuard) ||
      !args.every((argument) => isGuard(argument) || constantBytes(argument) !== undefined)
    )
      this.refuse(`write this call of ${name} more plainly`, fields.location);
  }

  /**
   * Unqualified operators resolve in query_guard, then pg_catalog; `OPERATOR(schema.op)` could
   * reach any other schema, and `OPERATOR(pg_catalog.||)` would get past the guard of `||`.
   */
  private operator(names: unknown, location: unknown): void {
    const name = stringsOf(names);
    if (name.length > 1 && (name.length > 2 || name[0] !== 'pg_catalog' || GUARDED_OPERATORS.has(name[1])))
      this.refuse(`operator ${name.join('.')} is not allowed in a query`, location);
  }

  /** Only base types: see type-casts.ts for why a catalogue, reg* or table row type is refused. */
  private typeCast(fields: Node): void {
    const typeName = (fields.typeName as Node | undefined) ?? {};
    // A typed literal (`regclass 'x'`) has no location of its own: point at its type.
    this.typeName(typeName, (fields.location as number) >= 0 ? fields.location : typeName.location);
  }

  private typeName(fields: Node, location: unknown): void {
    const names = stringsOf(fields.names);
    if (!isAllowedCastType(names)) {
      const shown = names.filter((name) => name !== 'pg_catalog').join('.');
      this.refuse(`a cast to ${shown} is not allowed in a query`, location);
    }
  }
}

function isSelect(statement: unknown): boolean {
  return typeof statement === 'object' && statement !== null && 'SelectStmt' in statement;
}

/** `TABLE name` parses as SELECT * FROM name with a star that stands nowhere in the text. */
function isTableStatement(select: Node): boolean {
  const targets = select.targetList as Array<{ ResTarget?: { location?: number } }> | undefined;
  return targets?.length === 1 && targets[0].ResTarget?.location === -1;
}

/**
 * The query up to the end of its statement: a closing semicolon and anything after it (blanks, a
 * comment) left out, so the statement can stand inside parentheses.
 */
function statementText(sql: string, statement: { stmt_location?: number; stmt_len?: number }): string {
  if (!statement.stmt_len) return sql;
  const end = (statement.stmt_location ?? 0) + statement.stmt_len;
  return Buffer.from(sql, 'utf8').subarray(0, end).toString('utf8');
}

/**
 * The EXPLAIN options that show only the plan of the user's own statement. SETTINGS lists the
 * server's changed settings (work_mem, the search path naming the app's schemas), VERBOSE the
 * schemas of tables and functions, BUFFERS the server's cache: none of those is the user's.
 */
const PLAN_OPTIONS = new Set(['format', 'costs', 'summary']);

/**
 * Parses with PostgreSQL's own parser and walks the whole tree: exactly one statement, a SELECT
 * (also VALUES, TABLE and WITH … SELECT) or an EXPLAIN of one without ANALYZE; every node of an
 * allowed kind, every function on the allow-list, tables named without a schema.
 */
export async function checkQuery(sql: string, guarded = false): Promise<CheckedQuery> {
  if (!sql.trim()) throw new QueryRefusal('The query is empty');
  let tree: { stmts?: Array<{ stmt: Node; stmt_location?: number; stmt_len?: number }> };
  try {
    tree = await parse(sql);
  } catch (error) {
    const details = (error as { sqlDetails?: { cursorPosition?: number } }).sqlDetails;
    const message = error instanceof Error ? error.message : 'syntax error';
    throw new QueryRefusal(
      message,
      details?.cursorPosition !== undefined ? details.cursorPosition + 1 : undefined,
    );
  }
  const statements = tree.stmts ?? [];
  if (statements.length === 0) throw new QueryRefusal('The query is empty');
  if (statements.length > 1) throw new QueryRefusal('Run one statement at a time');
  const check = new TreeCheck(sql, guarded);
  let statement = statements[0].stmt;
  let kind: CheckedQuery['kind'] = 'select';
  if ('ExplainStmt' in statement) {
    const explain = statement.ExplainStmt as Node;
    const options = (explain.options as Array<{ DefElem: { defname: string } }> | undefined) ?? [];
    if (options.some((option) => option.DefElem.defname === 'analyze'))
      throw new QueryRefusal('EXPLAIN ANALYZE runs the statement: use EXPLAIN without ANALYZE');
    const shown = options.find((option) => !PLAN_OPTIONS.has(option.DefElem.defname));
    if (shown)
      throw new QueryRefusal(
        `EXPLAIN (${shown.DefElem.defname.toUpperCase()}) shows the server's own settings or names: use FORMAT, COSTS or SUMMARY`,
      );
    statement = explain.query as Node;
    kind = 'explain';
  }
  if (!isSelect(statement))
    throw new QueryRefusal(
      `${Object.keys(statement)[0].replace(/Stmt$/, '')} is not allowed: only reading queries (SELECT) run here`,
    );
  check.walk(statement, TOP);
  const text = statementText(sql, statements[0]);
  const guards =
    check.valueAggregates.length +
    check.valueBuilders.length +
    check.arraySubqueries.length +
    check.constructors.length;
  if (guards > 0) return checkGuarded(text, check);
  return {
    kind,
    text,
    tables: check.tables.sort((first, second) => first.byteOffset - second.byteOffset),
    originalPosition: (position) => position,
  };
}

/**
 * The statement with its value aggregates and builders guarded, checked again as a whole: the
 * guard's insertions must leave a statement that passes every rule, with each aggregate's
 * arguments counted and each builder capped.
 */
async function checkGuarded(text: string, found: TreeCheck): Promise<CheckedQuery> {
  const { sql, originalPosition } = applyInsertions(text, [
    ...aggregateInsertions(text, found.valueAggregates),
    ...builderInsertions(text, found.valueBuilders),
    ...arraySubqueryInsertions(text, found.arraySubqueries),
    ...constructorInsertions(text, found.constructors),
  ]);
  try {
    return { ...(await checkQuery(sql, true)), originalPosition };
  } catch (error) {
    if (error instanceof QueryRefusal && error.position !== undefined)
      throw new QueryRefusal(error.message, originalPosition(error.position));
    throw error;
  }
}
