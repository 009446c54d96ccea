import type { ErrorObject } from 'ajv/dist/2020';
import type { SchemaField } from '../entities/connector.entity';
import { placeholdersOf } from '../engine/template';
import { valueProblem } from '../fields/field-values';
import { CONNECTOR_SPEC_SCHEMA } from './connector-spec.schema';
import { ajv } from './json-schema';
import { authExchangeProblems, operationProblems, Problem } from './connector-spec.rules';
import type { ConnectorSpec } from './connector-spec.types';
import { CLOCK_PLACEHOLDERS, incrementalPlaceholders, pipeProblems, shapingProblems } from './shaping-rules';

const validateSchema = ajv.compile(CONNECTOR_SPEC_SCHEMA);

/** The interactive OAuth2 flow (a user signing in at the provider) has no place in a server-run connector. */
const AUTHORIZATION_CODE_KEYS = ['authorization_url', 'auth_url'];

/** Features this product does not run (WebSocket, GraphQL, nested transforms), each refused by name at its path. */
function unsupportedFeatures(spec: Record<string, unknown>): Problem[] {
  const problems: Problem[] = [];
  const protocol = typeof spec.protocol === 'string' ? spec.protocol.toLowerCase() : '';
  if (['websocket', 'websockets', 'ws', 'wss'].includes(protocol)) {
    problems.push({ path: '/protocol', message: 'WebSocket connectors are not supported' });
  }
  if (protocol === 'graphql')
    problems.push({ path: '/protocol', message: 'GraphQL connectors are not supported' });
  if (typeof spec.base_url === 'string' && /^wss?:/i.test(spec.base_url)) {
    problems.push({ path: '/base_url', message: 'WebSocket connectors are not supported' });
  }
  const operations = Array.isArray(spec.operations) ? spec.operations : [];
  operations.forEach((operation: Record<string, unknown>, index) => {
    if (!operation || typeof operation !== 'object') return;
    if (typeof operation.url_path === 'string' && /^wss?:/i.test(operation.url_path)) {
      problems.push({
        path: `/operations/${index}/url_path`,
        message: 'WebSocket connectors are not supported',
      });
    }
    if ('graphql' in operation || String(operation.type ?? '').toLowerCase() === 'graphql') {
      problems.push({ path: `/operations/${index}`, message: 'GraphQL operations are not supported' });
    }
  });
  const findTransforms = (value: unknown, path: string) => {
    if (!value || typeof value !== 'object') return;
    for (const [key, inner] of Object.entries(value)) {
      if (key === 'transform' || key === 'transforms') {
        problems.push({ path: `${path}/${key}`, message: 'Nested transforms are not supported' });
      } else if (key !== 'body' && key !== 'default') findTransforms(inner, `${path}/${key}`);
    }
  };
  findTransforms(spec, '');
  const auth = spec.auth as Record<string, unknown> | undefined;
  if (auth && typeof auth === 'object') {
    const codeKeys = AUTHORIZATION_CODE_KEYS.filter((key) => key in auth);
    if (
      codeKeys.length > 0 ||
      auth.grant_type === 'authorization_code' ||
      /^oauth2?_/.test(String(auth.type ?? ''))
    ) {
      problems.push({
        path:
          codeKeys.length > 0 ? `/auth/${codeKeys[0]}` : auth.grant_type ? '/auth/grant_type' : '/auth/type',
        message:
          'The OAuth2 authorization-code flow is not supported: use auth type oauth2 with grant_type client_credentials or refresh_token, or a supplied access token',
      });
    }
  }
  return problems;
}

function describeAjvError(error: ErrorObject): Problem | undefined {
  const path = error.instancePath;
  switch (error.keyword) {
    case 'if':
      return undefined;
    case 'required':
      return { path, message: `missing required property '${String(error.params.missingProperty)}'` };
    case 'additionalProperties':
      return {
        path: `${path}/${String(error.params.additionalProperty)}`,
        message: `unknown property '${String(error.params.additionalProperty)}'`,
      };
    case 'enum':
      return { path, message: `must be one of: ${(error.params.allowedValues as unknown[]).join(', ')}` };
    default:
      return { path, message: error.message ?? 'is invalid' };
  }
}

/** Field keys as templates see them: `key`, and `group.key` for fields inside groups. */
function fieldPaths(fields: SchemaField[] | undefined, prefix = ''): string[] {
  return (fields ?? []).flatMap((field) => {
    const path = prefix ? `${prefix}.${field.key}` : field.key;
    return field.type === 'group' ? [path, ...fieldPaths(field.fields, path)] : [path];
  });
}

function duplicateKeys(fields: SchemaField[] | undefined, path: string, problems: Problem[]): void {
  const seen = new Set<string>();
  (fields ?? []).forEach((field, index) => {
    if (seen.has(field.key))
      problems.push({ path: `${path}/${index}/key`, message: `duplicate field key '${field.key}'` });
    seen.add(field.key);
    if (field.type === 'group') duplicateKeys(field.fields, `${path}/${index}/fields`, problems);
  });
}

/** A default fills saved settings unasked, so it is held to its field's rule like a value typed in. */
function defaultProblems(fields: SchemaField[] | undefined, path: string, problems: Problem[]): void {
  (fields ?? []).forEach((field, index) => {
    if (field.type === 'group') return defaultProblems(field.fields, `${path}/${index}/fields`, problems);
    const problem = field.default === undefined ? undefined : valueProblem(field, field.default);
    if (problem) problems.push({ path: `${path}/${index}/default`, message: problem });
  });
}

/** Cross-references JSON Schema cannot express: ids, placeholders, depends_on, options_endpoint. */
function semanticProblems(spec: ConnectorSpec): Problem[] {
  const problems: Problem[] = [];
  duplicateKeys(spec.fields, '/fields', problems);
  defaultProblems(spec.fields, '/fields', problems);
  const authKeys = (spec.auth?.fields ?? []).map((field) => field.key);
  const operationIds = new Set<string>();
  spec.operations.forEach((operation, index) => {
    const base = `/operations/${index}`;
    if (operationIds.has(operation.id))
      problems.push({ path: `${base}/id`, message: `duplicate operation id '${operation.id}'` });
    operationIds.add(operation.id);
    duplicateKeys(operation.params_fields, `${base}/params_fields`, problems);
    defaultProblems(operation.params_fields, `${base}/params_fields`, problems);
    if (!spec.base_url && !/^https?:\/\//.test(operation.url_path)) {
      problems.push({
        path: `${base}/url_path`,
        message: 'must be a full http(s) URL when the spec has no base_url',
      });
    }
    const known = new Set([
      ...fieldPaths(spec.fields),
      ...fieldPaths(operation.params_fields),
      ...authKeys,
      ...(operation.pagination?.inject_into === 'path' ? ['page_token'] : []),
      ...(operation.parent ? [operation.parent.as] : []),
      ...CLOCK_PLACEHOLDERS,
      ...incrementalPlaceholders(operation),
    ]);
    problems.push(...operationProblems(spec, operation, base));
    problems.push(
      ...shapingProblems(
        operation,
        base,
        new Set([...fieldPaths(spec.fields), ...fieldPaths(operation.params_fields)]),
      ),
    );
    const templates: Array<[string, string]> = [
      [`${base}/url_path`, operation.url_path],
      ...Object.entries(operation.query ?? {}).map(([key, value]): [string, string] => [
        `${base}/query/${key}`,
        String(value),
      ]),
      ...Object.entries(operation.headers ?? {}).map(([key, value]): [string, string] => [
        `${base}/headers/${key}`,
        String(value),
      ]),
    ];
    if (operation.body !== undefined) {
      templates.push([
        `${base}/body`,
        typeof operation.body === 'string' ? operation.body : JSON.stringify(operation.body),
      ]);
    }
    for (const [path, template] of templates) {
      problems.push(...pipeProblems(template, path));
      for (const placeholder of placeholdersOf(template)) {
        if (!known.has(placeholder)) {
          problems.push({
            path,
            message: `placeholder {{${placeholder}}} does not match any field or auth field`,
          });
        }
      }
    }
  });
  const allFields = [
    ...(spec.fields ?? []),
    ...spec.operations.flatMap((operation) => operation.params_fields ?? []),
  ];
  const known = new Set(fieldPaths(allFields));
  const checkFields = (fields: SchemaField[] | undefined, path: string) =>
    (fields ?? []).forEach((field, index) => {
      const fieldPath = `${path}/${index}`;
      (field.depends_on ?? []).forEach((dependency, dependencyIndex) => {
        if (!known.has(dependency)) {
          problems.push({
            path: `${fieldPath}/depends_on/${dependencyIndex}`,
            message: `'${dependency}' is not a field key`,
          });
        }
      });
      const endpoint = field.options_endpoint as unknown;
      const reference =
        typeof endpoint === 'string'
          ? endpoint
          : (endpoint as { operation?: string; url?: string } | undefined)?.operation;
      const url = typeof endpoint === 'object' && endpoint ? (endpoint as { url?: string }).url : undefined;
      if (
        endpoint !== undefined &&
        !url &&
        reference &&
        !operationIds.has(reference) &&
        !/^(https?:\/\/|\/)/.test(reference)
      ) {
        problems.push({
          path: `${fieldPath}/options_endpoint`,
          message: `'${reference}' is neither an operation id, a path starting with / nor an http(s) URL`,
        });
      }
      if (field.type === 'group') checkFields(field.fields, `${fieldPath}/fields`);
    });
  checkFields(spec.fields, '/fields');
  spec.operations.forEach((operation, index) =>
    checkFields(operation.params_fields, `/operations/${index}/params_fields`),
  );
  if (spec.auth && spec.auth.type !== 'none' && (spec.auth.fields ?? []).length === 0) {
    problems.push({ path: '/auth/fields', message: 'must list at least one auth field for this auth type' });
  }
  if (spec.auth?.type === 'basic' && (spec.auth.fields ?? []).length < 2) {
    problems.push({ path: '/auth/fields', message: 'basic auth needs two fields: user name and password' });
  }
  problems.push(...authExchangeProblems(spec, authKeys));
  return problems;
}

/**
 * Every problem of an uploaded spec, each as "spec<json-pointer>: message"; empty when the spec
 * can be stored. Unsupported features come first, named, without duplicate schema noise.
 */
export function validateConnectorSpec(spec: unknown): string[] {
  if (!spec || typeof spec !== 'object' || Array.isArray(spec)) return ['spec: must be a JSON object'];
  const unsupported = unsupportedFeatures(spec as Record<string, unknown>);
  const flagged = new Set(unsupported.map((problem) => problem.path));
  const problems = [...unsupported];
  if (!validateSchema(spec)) {
    for (const error of validateSchema.errors ?? []) {
      const problem = describeAjvError(error);
      if (
        !problem ||
        flagged.has(problem.path) ||
        [...flagged].some((path) => problem.path.startsWith(`${path}/`))
      )
        continue;
      if (!problems.some((known) => known.path === problem.path && known.message === problem.message))
        problems.push(problem);
    }
  } else {
    problems.push(...semanticProblems(spec as ConnectorSpec));
  }
  return problems.map((problem) => `spec${problem.path}: ${problem.message}`);
}
