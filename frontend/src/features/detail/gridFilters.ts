/** The grid's filter model as the server's row filters (`column:operator:value`). */

export interface GridFilterItemLike {
  field: string;
  operator: string;
  value?: unknown;
}

/** Grid operator → server operator; the grid offers only these on server-filtered tables. */
const OPERATORS: Record<string, string> = {
  contains: 'contains',
  equals: 'equals',
  is: 'equals',
  '=': 'equals',
  '>': 'gt',
  '>=': 'gte',
  '<': 'lt',
  '<=': 'lte',
  after: 'gt',
  onOrAfter: 'gte',
  before: 'lt',
  onOrBefore: 'lte',
  isEmpty: 'empty',
  isNotEmpty: 'notempty',
};

export const SERVER_FILTER_OPERATORS = Object.keys(OPERATORS);

function valueText(value: unknown): string | undefined {
  if (value === undefined || value === null || value === '') return undefined;
  if (value instanceof Date) {
    return Number.isNaN(value.getTime()) ? undefined : value.toISOString().slice(0, 10);
  }
  return String(value);
}

/** Filter strings for the items the server can apply; items still being typed are left out. */
export function serverFilters(items: GridFilterItemLike[]): string[] {
  return items.flatMap((item) => {
    const operator = OPERATORS[item.operator];
    if (!operator) return [];
    if (operator === 'empty' || operator === 'notempty') return [`${item.field}:${operator}`];
    const value = valueText(item.value);
    return value === undefined ? [] : [`${item.field}:${operator}:${value}`];
  });
}
