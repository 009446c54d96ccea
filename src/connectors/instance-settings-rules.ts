import { BadRequestException } from '@nestjs/common';
import { normalizeAuthFields } from './connector-views';
import type { InstanceSettingsDto } from './dto/instance-settings.dto';
import { valueAtPath } from './engine/template';
import type { Connector } from './entities/connector.entity';
import { settingsProblems } from './fields/field-values';
import { missingRequired, normalizeSettings } from './fields/schema-fields';
import { checkOperationIds } from './instance-operations';

const HEADER_NAME = /^[A-Za-z0-9!#$%&'*+.^_`|~-]{1,100}$/;
const FORBIDDEN_HEADERS = new Set([
  'host',
  'content-length',
  'transfer-encoding',
  'connection',
  'upgrade',
  'te',
  'trailer',
]);
const MAX_ITERATION_KEYS = 3;
/** Far beyond any real header; servers refuse header blocks much above 8 KB anyway. */
const MAX_HEADER_VALUE_LENGTH = 8192;

/**
 * Applies the field rules to incoming values: each of its field's type and no undeclared key,
 * private fields to auth data, include:false out, defaults in, required fields present
 * (visible ones only), headers and iterations sane. Nothing is changed when any rule fails.
 */
export function prepareInstanceSettings(
  connector: Connector,
  input: InstanceSettingsDto,
  baseSettings: Record<string, unknown>,
  baseAuth: Record<string, string>,
): {
  settings: Record<string, unknown>;
  authData: Record<string, string>;
  headers?: Record<string, string>;
  operationId?: string | null;
  /** Operations beyond the first, each into its own table (only when `operation_ids` was given). */
  furtherOperations?: string[];
} {
  const fields = connector.schema?.fields ?? [];
  // Settings sent are held to the fields; stored ones were when they were saved.
  const wrong = input.settings ? settingsProblems(fields, input.settings) : [];
  const authData = { ...baseAuth, ...stringValues(input.auth_data ?? {}) };
  const normalized = normalizeSettings(fields, input.settings ?? baseSettings, authData);
  const missing = missingRequired(
    fields,
    normalizeAuthFields(connector.authFields),
    normalized.settings,
    normalized.authData,
  );
  if (wrong.length > 0 || missing.length > 0) {
    throw new BadRequestException({
      message: [
        ...wrong.map((problem) =>
          problem.field?.label
            ? `${problem.field.label} (settings.${problem.path}) ${problem.message}`
            : `settings.${problem.path} ${problem.message}`,
        ),
        ...missing.map((label) => `${label} is required`),
      ],
    });
  }
  if (input.iterations) checkIterations(input.iterations, normalized.settings);
  if (input.operation_ids !== undefined && input.operation_id !== undefined) {
    throw new BadRequestException({ message: ['Give operation_id or operation_ids, not both'] });
  }
  const operationIds = input.operation_ids ? checkOperationIds(connector, input.operation_ids) : undefined;
  return {
    ...normalized,
    headers: input.headers ? checkHeaders(input.headers) : undefined,
    operationId: operationIds
      ? operationIds[0]
      : input.operation_id !== undefined
        ? checkOperation(connector, input.operation_id)
        : undefined,
    furtherOperations: operationIds?.slice(1),
  };
}

export function checkIterations(iterations: string[], settings: Record<string, unknown>): void {
  if (iterations.length > MAX_ITERATION_KEYS) {
    throw new BadRequestException(`At most ${MAX_ITERATION_KEYS} settings can be iterated`);
  }
  const problems = iterations
    .filter((key) => !Array.isArray(valueAtPath(settings, key)))
    .map((key) => `iterations: setting '${key}' must hold an array of values`);
  if (problems.length > 0) throw new BadRequestException({ message: problems });
}

/** The operation id if the connector's spec has it; empty means the first operation. */
function checkOperation(connector: Connector, operationId: string): string | null {
  if (operationId === '') return null;
  const operations = (connector.spec as { operations?: Array<{ id: string }> } | null)?.operations ?? [];
  if (!operations.some((operation) => operation.id === operationId)) {
    throw new BadRequestException({
      message: [`operation_id: '${operationId}' is not an operation of this connector`],
    });
  }
  return operationId;
}

/** The method an instance calls with unless told: its connector's first operation's. */
export function defaultMethod(connector: Connector): 'GET' | 'POST' {
  const operations = (connector.spec as { operations?: Array<{ method?: string }> } | null)?.operations;
  return operations?.[0]?.method === 'POST' ? 'POST' : 'GET';
}

function stringValues(values: Record<string, unknown>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(values)
      .filter(([, value]) => value !== undefined && value !== null && typeof value !== 'object')
      .map(([key, value]) => [key, String(value)]),
  );
}

function checkHeaders(headers: Record<string, unknown>): Record<string, string> {
  const problems: string[] = [];
  const clean: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (!HEADER_NAME.test(name)) problems.push(`headers: '${name}' is not a valid header name`);
    else if (FORBIDDEN_HEADERS.has(name.toLowerCase())) problems.push(`headers: '${name}' cannot be set`);
    else if (typeof value !== 'string' && typeof value !== 'number')
      problems.push(`headers: '${name}' must be text`);
    else if (/[\r\n\0]/.test(String(value))) problems.push(`headers: '${name}' must not contain line breaks`);
    else if (String(value).length > MAX_HEADER_VALUE_LENGTH)
      problems.push(`headers: '${name}' must be at most ${MAX_HEADER_VALUE_LENGTH} characters`);
    else clean[name] = String(value);
  }
  if (Object.keys(headers).length > 50) problems.push('headers: at most 50 headers');
  if (problems.length > 0) throw new BadRequestException({ message: problems });
  return clean;
}
