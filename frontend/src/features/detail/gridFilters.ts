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

/** How a picked date is sent: the day, the instant (UTC), or the wall clock typed (no offset). */
type DateSending = 'day' | 'instant' | 'wallClock';

const twoDigits = (number: number) => String(number).padStart(2, '0');

/** The digits picked in the browser's own zone, without offset: what a naive column holds. */
function wallClockText(value: Date): string {
  const day = `${value.getFullYear()}-${twoDigits(value.getMonth() + 1)}-${twoDigits(value.getDate())}`;
  return `${day}T${twoDigits(value.getHours())}:${twoDigits(value.getMinutes())}:${twoDigits(value.getSeconds())}`;
}

/**
 * The grid's date filter gives midnight UTC of the day picked, sent as that day; its date-time
 * filter gives the instant picked (in the browser's time zone), sent as that instant in UTC, or,
 * on a column without offsets, as the digits picked.
 */
function valueText(value: unknown, sending: DateSending): string | undefined {
  if (value === undefined || value === null || value === '') return undefined;
  if (value instanceof Date) {
    if (Number.isNaN(value.getTime())) return undefined;
    if (sending === 'wallClock') return wallClockText(value);
    return sending === 'instant' ? value.toISOString() : value.toISOString().slice(0, 10);
  }
  return String(value);
}

/**
 * Filter strings for the items the server can apply; items still being typed are left out.
 * `timestamps` names the columns holding date-times (their filters keep the time of day),
 * `wallClocks` those holding date-times without offset.
 */
export function serverFilters(
  items: GridFilterItemLike[],
  timestamps: ReadonlySet<string> = new Set(),
  wallClocks: ReadonlySet<string> = new Set(),
): string[] {
  return items.flatMap((item) => {
    const operator = OPERATORS[item.operator];
    if (!operator) return [];
    if (operator === 'empty' || operator === 'notempty') return [`${item.field}:${operator}`];
    const sending = wallClocks.has(item.field) ? 'wallClock' : timestamps.has(item.field) ? 'instant' : 'day';
    const value = valueText(item.value, sending);
    return value === undefined ? [] : [`${item.field}:${operator}:${value}`];
  });
}
