import { ConnectorFetchError } from './connector-fetch-error';

/** Splits `data.items[0].rows` / `data.items.0.rows` into its steps. */
export function pathSteps(path: string): string[] {
  return path
    .replace(/^\$\.?/, '')
    .replace(/\[(\d+|\*)\]/g, '.$1')
    .split('.')
    .filter((step) => step !== '');
}

/** The value at a dotted path with array indices, or undefined when any step is missing. */
export function valueAtResponsePath(document: unknown, path: string): unknown {
  let current = document;
  for (const step of pathSteps(path)) {
    if (current === null || typeof current !== 'object') return undefined;
    current = (current as Record<string, unknown>)[step];
  }
  return current;
}

/**
 * The records a response carries: the array (or single object, counted as one record) found
 * at `response_path`, or at the root without one. Scalars become `{ value }` rows.
 */
export function extractRecords(document: unknown, responsePath?: string | null): Record<string, unknown>[] {
  const found = responsePath ? valueAtResponsePath(document, responsePath) : document;
  if (found === undefined || found === null) {
    if (!responsePath) return [];
    throw new ConnectorFetchError(`response_path '${responsePath}' was not found in the response`);
  }
  const items = Array.isArray(found) ? found : [found];
  return items
    .filter((item) => item !== null && item !== undefined)
    .map((item) =>
      typeof item === 'object' && !Array.isArray(item) ? (item as Record<string, unknown>) : { value: item },
    );
}
