import type { Values } from './connectorTypes';

export const INVALID_JSON = 'Invalid JSON format';

/** Nested settings -> flat `{ 'group.key': value }` (arrays and empty objects stay values). */
export function toDottedKeys(nested: Values, prefix = ''): Values {
  const flat: Values = {};
  for (const [key, value] of Object.entries(nested ?? {})) {
    const path = prefix ? `${prefix}.${key}` : key;
    if (value && typeof value === 'object' && !Array.isArray(value) && Object.keys(value).length > 0) {
      Object.assign(flat, toDottedKeys(value as Values, path));
    } else {
      flat[path] = value;
    }
  }
  return flat;
}

/** Flat dotted keys -> nested settings; a later deeper key wins over a scalar at its prefix. */
export function fromDottedKeys(flat: Values): Values {
  const nested: Values = {};
  for (const [path, value] of Object.entries(flat ?? {})) {
    const parts = path.split('.');
    let current = nested;
    for (const part of parts.slice(0, -1)) {
      if (!current[part] || typeof current[part] !== 'object' || Array.isArray(current[part]))
        current[part] = {};
      current = current[part] as Values;
    }
    current[parts[parts.length - 1]] = value;
  }
  return nested;
}

/** The Advanced editor's text for flat form values: nested, pretty JSON. */
export function toAdvancedJson(flat: Values): string {
  return JSON.stringify(fromDottedKeys(flat), null, 2);
}

export type ParsedAdvanced =
  { ok: true; flat: Values; nested: Values } | { ok: false; error: typeof INVALID_JSON };

/** The Advanced editor's text back to flat values; anything but a JSON object blocks the switch. */
export function fromAdvancedJson(text: string): ParsedAdvanced {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return { ok: false, error: INVALID_JSON };
  }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed))
    return { ok: false, error: INVALID_JSON };
  return { ok: true, flat: toDottedKeys(parsed as Values), nested: parsed as Values };
}
