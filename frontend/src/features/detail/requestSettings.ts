/** Validation of the request options of the connector setup, apart from the schema fields. */

export interface IntervalResult {
  value?: number;
  error?: string;
}

/** Refresh interval in whole minutes, minimum 0, default 0; empty means 0. */
export function parseRefreshInterval(text: string): IntervalResult {
  const trimmed = text.trim();
  if (trimmed === '') return { value: 0 };
  const value = Number(trimmed);
  if (!Number.isInteger(value)) return { error: 'Refresh interval must be a whole number of minutes.' };
  if (value < 0) return { error: 'Refresh interval must be 0 or more.' };
  return { value };
}

/** The POST body template must be JSON text (placeholders sit inside strings). Empty is allowed. */
export function bodyTemplateError(method: 'GET' | 'POST', template: string): string | undefined {
  if (method !== 'POST' || template.trim() === '') return undefined;
  try {
    JSON.parse(template);
    return undefined;
  } catch {
    return 'Body template must be valid JSON.';
  }
}

/** Setting keys (dotted) whose values are arrays: each value gets its own request sequence on a run. */
export function iterationKeys(settings: Record<string, unknown>, prefix = ''): string[] {
  const keys: string[] = [];
  for (const [key, value] of Object.entries(settings)) {
    const path = prefix ? `${prefix}.${key}` : key;
    if (Array.isArray(value)) keys.push(path);
    else if (value && typeof value === 'object')
      keys.push(...iterationKeys(value as Record<string, unknown>, path));
  }
  return keys;
}

export interface StreamChoice {
  id: string;
  label: string;
}

/** The operations (streams) of a connector's spec an instance may run; empty when there is no choice. */
export function streamChoices(
  spec: { operations?: Array<{ id: string; name?: string }> } | null | undefined,
): StreamChoice[] {
  const operations = spec?.operations ?? [];
  if (operations.length < 2) return [];
  return operations.map((operation) => ({
    id: operation.id,
    label: operation.name ? `${operation.name} (${operation.id})` : operation.id,
  }));
}

/** The streams checked when the setup opens: the instance's, else the spec's first. */
export function initialStreams(saved: string[] | undefined, choices: StreamChoice[]): string[] {
  const known = (saved ?? []).filter((id) => choices.some((choice) => choice.id === id));
  if (known.length > 0) return known;
  return choices.length > 0 ? [choices[0].id] : [];
}

/**
 * The checked streams in the order they are sent: the stream writing the instance's own table
 * stays first while it is checked (its table keeps its rows), the others in the spec's order.
 */
export function orderedStreams(
  checked: string[],
  ownTableStream: string | undefined,
  choices: StreamChoice[],
): string[] {
  const inSpecOrder = choices.map((choice) => choice.id).filter((id) => checked.includes(id));
  if (!ownTableStream || !inSpecOrder.includes(ownTableStream)) return inSpecOrder;
  return [ownTableStream, ...inSpecOrder.filter((id) => id !== ownTableStream)];
}

export const PICK_A_STREAM = 'Pick at least one stream.';

/** Whether any operation of a spec reads incrementally, so that an instance has a state to reset. */
export function readsIncrementally(
  spec: { operations?: Array<{ incremental?: unknown }> } | null | undefined,
): boolean {
  return (spec?.operations ?? []).some((operation) => !!operation.incremental);
}
