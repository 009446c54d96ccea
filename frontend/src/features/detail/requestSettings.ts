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
  /** '' runs the spec's first operation. */
  id: string;
  label: string;
}

/** The operations (streams) of a connector's spec an instance may run; empty when there is no choice. */
export function streamChoices(
  spec: { operations?: Array<{ id: string; name?: string }> } | null | undefined,
): StreamChoice[] {
  const operations = spec?.operations ?? [];
  if (operations.length < 2) return [];
  return operations.map((operation, index) => ({
    id: index === 0 ? '' : operation.id,
    label: operation.name ? `${operation.name} (${operation.id})` : operation.id,
  }));
}
