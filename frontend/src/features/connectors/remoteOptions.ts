import type { Values } from './connectorTypes';
import { valueAt } from './fieldPaths';

export interface LoadedOption {
  label: string;
  value: string | number | boolean;
}

export interface Choice {
  label: string;
  value: string;
}

function isBlank(value: unknown): boolean {
  return value === undefined || value === null || value === '';
}

/**
 * The values an options look-up is made with (the fields it depends on, by their dotted paths),
 * and those still empty: the list cannot be loaded until they are filled.
 */
export function dependencyValues(
  dependsOn: string[],
  values: Values,
): { values: Record<string, unknown>; missing: string[] } {
  const picked: Record<string, unknown> = {};
  const missing: string[] = [];
  for (const path of dependsOn) {
    const value = valueAt(values, path);
    if (isBlank(value)) missing.push(path);
    else picked[path] = value;
  }
  return { values: picked, missing };
}

/**
 * The loaded options as the form's text values. While a list is (re)loading, a value already
 * chosen (or saved) stays listed so the drop-down does not show it as invalid.
 */
export function selectChoices(loaded: LoadedOption[] | undefined, current: unknown): Choice[] {
  const choices = (loaded ?? []).map((option) => ({ label: option.label, value: String(option.value) }));
  if (!loaded && !isBlank(current)) return [{ label: String(current), value: String(current) }];
  return choices;
}

/** A chosen value the freshly loaded list no longer offers (the field it depends on changed). */
export function isStaleChoice(loaded: LoadedOption[] | undefined, current: unknown): boolean {
  if (!loaded || isBlank(current)) return false;
  return !loaded.some((option) => String(option.value) === String(current));
}
