import { ConnectorFetchError } from './connector-fetch-error';
import type { RunPlan } from './run-plan';
import { valueAtPath } from './template';

/** Every combination of the iterated settings' values ([{}] without iterations). */
export function iterationsOf(plan: RunPlan, maxIterations: number): Array<Record<string, unknown>> {
  let combinations: Array<Record<string, unknown>> = [{}];
  for (const key of plan.iterations ?? []) {
    const raw = valueAtPath(plan.settings, key);
    const values = Array.isArray(raw) ? raw : raw === undefined ? [] : [raw];
    combinations = combinations.flatMap((combination) =>
      values.map((value) => ({ ...combination, [key]: value })),
    );
    if (combinations.length > maxIterations) {
      throw new ConnectorFetchError(`Iterations expand into more than ${maxIterations} request sequences`);
    }
  }
  return combinations;
}

/** The settings of one partition: the run's settings with the partition's values set in. */
export function partitionSettings(
  settings: Record<string, unknown>,
  partition: Record<string, unknown>,
): Record<string, unknown> {
  const copy = structuredClone(settings);
  for (const [key, value] of Object.entries(partition)) setAtPath(copy, key, value);
  return copy;
}

export function setAtPath(target: Record<string, unknown>, path: string, value: unknown): void {
  const parts = path.split('.');
  let current = target;
  for (const part of parts.slice(0, -1)) {
    if (current[part] === null || typeof current[part] !== 'object') current[part] = {};
    current = current[part] as Record<string, unknown>;
  }
  current[parts[parts.length - 1]] = value;
}
