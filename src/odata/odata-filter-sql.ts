import type { Token } from '@odata/parser';
import { quoteIdentifier } from '../database/data-tables/data-table-names';
import type { EntityProperty, EntitySet } from './odata-entity-set';
import { badOption, memberName } from './odata-query-options';

/** The table alias every generated statement reads the entity set's table under. */
export const TABLE_ALIAS = 't';

const COMPARISONS: Record<string, string> = {
  EqualsExpression: 'eq',
  NotEqualsExpression: 'ne',
  LesserThanExpression: 'lt',
  LesserOrEqualsExpression: 'le',
  GreaterThanExpression: 'gt',
  GreaterOrEqualsExpression: 'ge',
};
const SQL_OPERATORS: Record<string, string> = { lt: '<', le: '<=', gt: '>', ge: '>=' };
const FLIPPED: Record<string, string> = { eq: 'eq', ne: 'ne', lt: 'gt', le: 'ge', gt: 'lt', ge: 'le' };
const LIKE_PATTERNS: Record<string, (text: string) => string> = {
  contains: (text) => `%${text}%`,
  startswith: (text) => `${text}%`,
  endswith: (text) => `%${text}`,
};

const INTEGER_TYPES = new Set(['int2', 'int4', 'int8']);
const NUMBER_TYPES = new Set([...INTEGER_TYPES, 'numeric', 'float4', 'float8']);
const TEXT_TYPES = new Set(['text', 'varchar', 'bpchar']);
const INTEGER_LITERALS = new Set(['Edm.SByte', 'Edm.Byte', 'Edm.Int16', 'Edm.Int32', 'Edm.Int64']);
const NUMBER_LITERALS = new Set([...INTEGER_LITERALS, 'Edm.Decimal', 'Edm.Double', 'Edm.Single']);
const TIME_POINT_TYPES = new Set(['date', 'timestamp', 'timestamptz']);

/** Which values a property holds, for deciding what it may be compared with. */
function category(property: EntityProperty): string {
  if (NUMBER_TYPES.has(property.pgType)) return 'number';
  if (TIME_POINT_TYPES.has(property.pgType)) return 'time point';
  if (property.edmType === 'Edm.String') return 'text';
  return property.pgType;
}

/**
 * Where the statements read the filter's values: transaction-local settings, set through bind
 * parameters just before (see filterValueSettings). A COPY takes no parameters, and this way no
 * client text ever becomes SQL text, not even escaped.
 */
const FILTER_VALUE_SETTING = 'odata.value_';

/** The SQL reading the `n`th value (from 1), as text. */
function filterValue(n: number): string {
  return `current_setting('${FILTER_VALUE_SETTING}${n}')`;
}

/** The statement that makes `values` readable by the filter's SQL for the rest of the transaction. */
export function filterValueSettings(values: string[]): { text: string; values: string[] } | undefined {
  if (values.length === 0) return undefined;
  const settings = values.map(
    (_, index) => `set_config('${FILTER_VALUE_SETTING}${index + 1}', $${index + 1}, true)`,
  );
  return { text: `SELECT ${settings.join(', ')}`, values };
}

/** The translated filter and the date/time columns it bounds (candidates for an index). */
export interface FilterSql {
  sql: string;
  rangeColumns: string[];
}

/**
 * Translates a parsed `$filter` into a SQL condition on the entity set's table. Every value is
 * appended to `values` and read from its setting, cast to the column's type (a stable
 * expression, so an index on the column stays usable);
 * identifiers come only from the entity set's own properties, quoted by the data-table module.
 * OData's two-valued logic (null compares false) is kept: `ne` is IS DISTINCT FROM and `not`
 * is IS NOT TRUE.
 */
export function filterSql(token: Token, set: EntitySet, values: string[]): FilterSql {
  const translator = new FilterTranslator(set, values);
  return { sql: translator.condition(token), rangeColumns: [...translator.rangeColumns] };
}

class FilterTranslator {
  readonly rangeColumns = new Set<string>();
  private readonly properties: Map<string, EntityProperty>;

  constructor(
    private readonly set: EntitySet,
    private readonly values: string[],
  ) {
    this.properties = new Map(set.properties.map((property) => [property.name, property]));
  }

  condition(token: Token): string {
    const inner = token.value as Token;
    switch (token.type) {
      case 'CommonExpression':
        return this.condition(inner);
      case 'BoolParenExpression':
      case 'ParenExpression':
        return `(${this.condition(inner)})`;
      case 'AndExpression':
      case 'OrExpression': {
        const { left, right } = token.value as { left: Token; right: Token };
        const joiner = token.type === 'AndExpression' ? 'AND' : 'OR';
        return `(${this.condition(left)} ${joiner} ${this.condition(right)})`;
      }
      case 'NotExpression':
        return `((${this.condition(inner)}) IS NOT TRUE)`;
      case 'MethodCallExpression':
        return this.likeCall(token);
      case 'FirstMemberExpression': {
        const property = this.property(token);
        if (property.pgType !== 'bool') throw badOption(`${property.name} is not a true/false property`);
        return `${this.column(property)} IS TRUE`;
      }
      case 'Literal':
        if (token.raw === 'true' || token.raw === 'false') return token.raw.toUpperCase();
        break;
      default:
        if (token.type in COMPARISONS) return this.comparison(token);
    }
    throw badOption(`$filter does not support ${JSON.stringify(token.raw)}`);
  }

  private property(token: Token): EntityProperty {
    const name = memberName(token);
    if (!name) throw badOption(`$filter does not support ${JSON.stringify(token.raw)}`);
    const property = this.properties.get(name);
    if (!property) throw badOption(`${this.set.name} has no property ${name}`);
    if (!property.column) throw badOption(`${name} is the row's position and cannot be filtered`);
    return property;
  }

  private column(property: EntityProperty): string {
    return `${TABLE_ALIAS}.${quoteIdentifier(property.column!)}`;
  }

  /** The column as compared: text-like values that are not stored as text are compared as text. */
  private comparable(property: EntityProperty): string {
    const column = this.column(property);
    return category(property) === 'text' && !TEXT_TYPES.has(property.pgType) ? `${column}::text` : column;
  }

  private parameter(value: string, cast: string): string {
    this.values.push(value);
    return `${filterValue(this.values.length)}::${cast}`;
  }

  private comparison(token: Token): string {
    const { left, right } = token.value as { left: Token; right: Token };
    let operator = COMPARISONS[token.type];
    let [subject, other] = [left, right];
    if (subject.type === 'Literal') {
      if (other.type === 'Literal')
        throw badOption(`$filter compares two values: ${JSON.stringify(token.raw)}`);
      [subject, other] = [right, left];
      operator = FLIPPED[operator];
    }
    const property = this.property(subject);
    const column = this.comparable(property);
    if (other.type !== 'Literal') {
      const otherProperty = this.property(other);
      if (category(otherProperty) !== category(property))
        throw badOption(`${property.name} and ${otherProperty.name} hold different kinds of values`);
      // Between two properties null equals null, as OData has it.
      if (operator === 'eq') return `${column} IS NOT DISTINCT FROM ${this.comparable(otherProperty)}`;
      return compare(column, operator, this.comparable(otherProperty));
    }
    if (other.raw === 'null') {
      if (operator === 'eq') return `${column} IS NULL`;
      if (operator === 'ne') return `${column} IS NOT NULL`;
      return 'FALSE';
    }
    if (property.pgType === 'date' && other.value === 'Edm.DateTimeOffset') {
      return this.dateAgainstInstant(property, operator, other.raw);
    }
    if (operator in SQL_OPERATORS && TIME_POINT_TYPES.has(property.pgType)) {
      this.rangeColumns.add(property.column!);
    }
    return compare(column, operator, this.literal(property, other));
  }

  /**
   * A date column against a point in time, index-friendly: the column holds midnights (UTC), so
   * `ge`/`lt` compare with the bound's day rounded up, `gt`/`le` with it rounded down.
   */
  private dateAgainstInstant(property: EntityProperty, operator: string, raw: string): string {
    const column = this.column(property);
    const instant = `(${this.parameter(raw, 'timestamptz')} AT TIME ZONE 'UTC')`;
    if (operator === 'eq' || operator === 'ne') return compare(`${column}::timestamp`, operator, instant);
    this.rangeColumns.add(property.column!);
    const day =
      operator === 'ge' || operator === 'lt'
        ? `((${instant} + interval '1 day' - interval '1 microsecond')::date)`
        : `(${instant}::date)`;
    return compare(column, operator, day);
  }

  /** A literal as a typed parameter for comparing with `property`; 400 when the kinds differ. */
  private literal(property: EntityProperty, literal: Token): string {
    const edm = literal.value as string;
    const refuse = () =>
      badOption(`${property.name} (${property.edmType}) cannot be compared with ${literal.raw}`);
    switch (category(property)) {
      case 'number':
        if (!NUMBER_LITERALS.has(edm)) throw refuse();
        if (INTEGER_TYPES.has(property.pgType))
          return this.parameter(literal.raw, INTEGER_LITERALS.has(edm) ? 'int8' : 'numeric');
        return this.parameter(literal.raw, property.pgType === 'numeric' ? 'numeric' : 'float8');
      case 'text':
        if (edm !== 'Edm.String') throw refuse();
        return this.parameter(unquote(literal.raw), 'text');
      case 'time point':
        if (edm !== 'Edm.Date' && edm !== 'Edm.DateTimeOffset') throw refuse();
        if (property.pgType === 'timestamp')
          return `(${this.parameter(literal.raw, 'timestamptz')} AT TIME ZONE 'UTC')`;
        return this.parameter(literal.raw, property.pgType);
      case 'bool':
        if (edm !== 'Edm.Boolean') throw refuse();
        return this.parameter(literal.raw, 'boolean');
      case 'time':
        if (edm !== 'Edm.TimeOfDay') throw refuse();
        return this.parameter(literal.raw, 'time');
      case 'uuid':
        if (edm !== 'Edm.Guid') throw refuse();
        return this.parameter(literal.raw, 'uuid');
      default:
        throw refuse();
    }
  }

  /** contains / startswith / endswith on a text property: LIKE with the value's wildcards escaped. */
  private likeCall(token: Token): string {
    const { method, parameters } = token.value as { method: string; parameters: Token[] };
    const pattern = LIKE_PATTERNS[method];
    if (!pattern) throw badOption(`$filter does not support the function ${method}`);
    const [subject, text] = parameters;
    const property = this.property(subject);
    if (category(property) !== 'text')
      throw badOption(`${method} needs a text property, not ${property.name}`);
    if (text?.type !== 'Literal' || text.value !== 'Edm.String')
      throw badOption(`${method} needs a text value in quotes as its second argument`);
    const escaped = unquote(text.raw).replace(/[\\%_]/g, (character) => `\\${character}`);
    return `${this.comparable(property)} LIKE ${this.parameter(pattern(escaped), 'text')}`;
  }
}

function compare(left: string, operator: string, right: string): string {
  if (operator === 'eq') return `${left} = ${right}`;
  if (operator === 'ne') return `${left} IS DISTINCT FROM ${right}`;
  return `${left} ${SQL_OPERATORS[operator]} ${right}`;
}

/** The text of an OData string literal: outer quotes off, doubled quotes single. */
function unquote(raw: string): string {
  return raw.slice(1, -1).replace(/''/g, "'");
}
