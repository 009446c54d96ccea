import type { ConnectorSpec } from '../dsl/connector-spec.types';
import { dataOperation, operationBodyTemplate } from '../dsl/spec-to-connector';
import type { RunPlan } from '../engine/run-plan';
import type { Connector } from '../entities/connector.entity';
import type { ConnectorInstance } from '../entities/connector-instance.entity';

/**
 * The run plan of an instance: the connector's URL template, the spec's auth, pagination,
 * response_path and operation headers/body, overlaid with the instance's method, headers and
 * body template.
 */
export function buildRunPlan(
  connector: Connector,
  instance: ConnectorInstance,
  settings: Record<string, unknown>,
  authData: Record<string, string>,
): RunPlan {
  const spec = connector.spec as ConnectorSpec | null;
  const operation = dataOperation(spec);
  const operationHeaders = Object.fromEntries(
    Object.entries(operation?.headers ?? {}).map(([name, value]) => [name, String(value)]),
  );
  return {
    urlTemplate: connector.fetchUrlTemplate,
    method: instance.method,
    headers: { ...operationHeaders, ...instance.headers },
    bodyTemplate: instance.bodyTemplate ?? operationBodyTemplate(operation),
    auth: spec?.auth ?? null,
    authData,
    pagination: operation?.pagination ?? null,
    responsePath: operation?.response_path ?? null,
    settings,
    iterations: instance.iterations,
  };
}
