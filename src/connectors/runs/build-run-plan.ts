import type { ConnectorSpec, OperationSpec } from '../dsl/connector-spec.types';
import { dataOperation, operationBodyTemplate, operationUrlTemplate } from '../dsl/spec-to-connector';
import type { TokenStore } from '../engine/auth/token-store';
import type { RunPlan } from '../engine/run-plan';
import type { Connector } from '../entities/connector.entity';
import type { ConnectorInstance } from '../entities/connector-instance.entity';
import { flattenFields } from '../fields/schema-fields';
import type { SchemaField } from '../entities/connector.entity';

/** The fields rows are upserted on: the instance's operation's primary_key, if it declares one. */
export function primaryKeyOf(connector: Connector, instance: ConnectorInstance): string[] | undefined {
  const spec = connector.spec as ConnectorSpec | null;
  const operation =
    spec?.operations.find((candidate) => candidate.id === instance.operationId) ?? dataOperation(spec);
  return operation?.primary_key?.length ? operation.primary_key : undefined;
}

/** How deep parent streams may nest (the validator refuses cycles; this bounds the rest). */
const MAX_PARENT_DEPTH = 3;

/**
 * The run plan of an instance: the operation it runs (its own or the spec's first), with the
 * spec's auth, request options, pagination, response filters and response_path, overlaid with
 * the instance's method, headers and body template. Settings reach a request through templates,
 * and an operation's own params_fields as query parameters (see declaredParamsOf).
 */
export function buildRunPlan(
  connector: Connector,
  instance: ConnectorInstance,
  settings: Record<string, unknown>,
  authData: Record<string, string>,
  tokenStore?: TokenStore,
): RunPlan {
  const spec = connector.spec as ConnectorSpec | null;
  const chosen = spec?.operations.find((operation) => operation.id === instance.operationId);
  const operation = chosen ?? dataOperation(spec);
  const common = {
    auth: spec?.auth ?? null,
    authData,
    baseUrl: spec?.base_url ?? null,
    tokenStore,
    settings,
    requestOptions: spec?.requests,
    budgetKey: connector.id,
  };
  const plan: RunPlan = {
    ...common,
    ...operationParts(spec, operation),
    declaredParams: spec ? paramsOf(operation?.params_fields) : paramsOf(connector.schema?.fields),
    // The first operation's template was stored at upload with the query in the order written (the
    // jsonb spec keeps its keys in an order of its own).
    urlTemplate:
      spec && operation && operation !== dataOperation(spec)
        ? operationUrlTemplate(spec, operation)
        : connector.fetchUrlTemplate,
    iterations: instance.iterations,
    incremental: operation?.incremental,
    conditional: operation?.conditional_requests === true,
    state:
      operation?.incremental || operation?.conditional_requests ? (instance.incrementalState ?? null) : null,
  };
  // The instance's own request options apply to the operation it was set up for.
  if (!chosen || chosen === dataOperation(spec)) {
    plan.method = instance.method;
    plan.bodyTemplate = instance.bodyTemplate ?? plan.bodyTemplate;
  }
  plan.headers = { ...plan.headers, ...instance.headers };
  if (spec && operation) plan.parent = parentOf(spec, operation, common, 0);
  return plan;
}

/**
 * The settings sent as query parameters on their own, named after their keys: an operation's
 * params_fields (not private, not include:false), for that operation only. The spec's shared
 * fields reach a request only through templates. A connector without a spec (a URL template
 * alone) sends its fields this way, its only way to use them.
 */
function paramsOf(fields: SchemaField[] | undefined): string[] {
  return flattenFields(fields ?? [])
    .filter((entry) => !entry.field.private && entry.field.include !== false)
    .map((entry) => entry.path);
}

function operationParts(spec: ConnectorSpec | null, operation: OperationSpec | undefined) {
  return {
    method: operation?.method ?? 'GET',
    headers: Object.fromEntries(
      Object.entries(operation?.headers ?? {}).map(([name, value]) => [name, String(value)]),
    ),
    bodyTemplate: operationBodyTemplate(operation),
    bodyFormat: operation?.body_format,
    pagination: operation?.pagination ?? null,
    responsePath: operation?.response_path ?? null,
    responseFilters: operation?.response_filters,
    format: operation?.format,
    records: operation?.records,
    urlTemplate: spec && operation ? operationUrlTemplate(spec, operation) : '',
  };
}

function parentOf(
  spec: ConnectorSpec,
  operation: OperationSpec,
  common: Omit<RunPlan, 'urlTemplate' | 'method' | 'headers'>,
  depth: number,
): RunPlan['parent'] {
  if (!operation.parent || depth >= MAX_PARENT_DEPTH) return undefined;
  const parent = spec.operations.find((candidate) => candidate.id === operation.parent!.operation);
  if (!parent) return undefined;
  const plan: RunPlan = {
    ...common,
    ...operationParts(spec, parent),
    declaredParams: paramsOf(parent.params_fields),
  };
  plan.parent = parentOf(spec, parent, common, depth + 1);
  return { plan, field: operation.parent.field, as: operation.parent.as };
}
