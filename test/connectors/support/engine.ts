import { ConnectorEngine, newProgress, RunProgress } from '../../../src/connectors/engine/connector-engine';
import { DEFAULT_ENGINE_LIMITS, EngineLimits } from '../../../src/connectors/engine/engine-limits';
import type { FetchedPage, RunPlan } from '../../../src/connectors/engine/run-plan';

/** An engine with fast retries, allowed to reach the loopback fake servers unless told otherwise. */
export function testEngine(limits: Partial<EngineLimits> = {}): ConnectorEngine {
  return new ConnectorEngine({
    ...DEFAULT_ENGINE_LIMITS,
    allowPrivateNetworks: true,
    retryBaseDelayMs: 10,
    timeoutMs: 2000,
    ...limits,
  });
}

export function plan(overrides: Partial<RunPlan> & { urlTemplate: string }): RunPlan {
  return { method: 'GET', headers: {}, authData: {}, settings: {}, ...overrides };
}

export async function collect(
  engine: ConnectorEngine,
  runPlan: RunPlan,
  progress: RunProgress = newProgress(),
): Promise<FetchedPage[]> {
  const pages: FetchedPage[] = [];
  for await (const page of engine.pages(runPlan, progress)) pages.push(page);
  return pages;
}

/** A test read: the run's records kept in memory instead of written to a table. */
export async function records(
  engine: ConnectorEngine,
  runPlan: RunPlan,
  progress: RunProgress = newProgress(),
): Promise<Record<string, unknown>[]> {
  return (await collect(engine, runPlan, progress)).flatMap((page) => page.records);
}
