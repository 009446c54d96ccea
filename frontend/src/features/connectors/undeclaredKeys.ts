import type { SchemaField } from '../../api/connectors';
import type { Values } from './connectorTypes';
import { flattenFields } from './fieldPaths';

/** Settings keys that are the app's own, not the connector's. */
const RESERVED = new Set(['override']);

/**
 * Dotted keys of the Advanced (JSON) settings that no field of the connector declares: the server
 * refuses them on save, so the editor names them before that.
 */
export function undeclaredKeys(fields: SchemaField[] | undefined, settings: Values): string[] {
  const entries = flattenFields(fields);
  const declared = new Set(entries.map((entry) => entry.path));
  const groups = new Set(entries.flatMap((entry) => groupPrefixes(entry.path)));
  const found: string[] = [];
  const walk = (values: Values, prefix: string) => {
    for (const [key, value] of Object.entries(values ?? {})) {
      const path = prefix ? `${prefix}.${key}` : key;
      if (!prefix && RESERVED.has(key)) continue;
      if (declared.has(path)) continue;
      if (groups.has(path) && value && typeof value === 'object' && !Array.isArray(value))
        walk(value as Values, path);
      else found.push(path);
    }
  };
  walk(settings, '');
  return found;
}

function groupPrefixes(path: string): string[] {
  const parts = path.split('.');
  return parts.slice(0, -1).map((_part, index) => parts.slice(0, index + 1).join('.'));
}

export function undeclaredKeysNote(keys: string[]): string | null {
  if (keys.length === 0) return null;
  return `Not fields of this connector, so saving refuses them: ${keys.join(', ')}.`;
}
