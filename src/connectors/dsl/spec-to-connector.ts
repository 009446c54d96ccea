import type { AuthField, SchemaField } from '../entities/connector.entity';
import type { ConnectorSpec, OperationSpec } from './connector-spec.types';

export interface ConnectorDefinition {
  fetchUrlTemplate: string;
  schemaFields: SchemaField[];
  specificationFields: SchemaField[];
  authFields: AuthField[];
  method: 'GET' | 'POST';
  category: string;
}

/** The operation an instance runs unless it names another: the first one. */
export function dataOperation(spec: ConnectorSpec | null | undefined): OperationSpec | undefined {
  return spec?.operations?.[0];
}

/** Full URL template of an operation: base_url + url_path, with its query map appended. */
export function operationUrlTemplate(spec: ConnectorSpec, operation: OperationSpec): string {
  const path = operation.url_path;
  const base = /^https?:\/\//.test(path)
    ? path
    : `${(spec.base_url ?? '').replace(/\/+$/, '')}/${path.replace(/^\/+/, '')}`;
  const pairs = Object.entries(operation.query ?? {}).map(([key, value]) => {
    const text = String(value);
    const encoded = text.replace(
      /(\{\{[^}]*\}\})|([^{]+|\{)/g,
      (_all, placeholder: string, literal: string) => placeholder ?? encodeURIComponent(literal),
    );
    return `${encodeURIComponent(key)}=${encoded}`;
  });
  if (pairs.length === 0) return base;
  return `${base}${base.includes('?') ? '&' : '?'}${pairs.join('&')}`;
}

export function operationBodyTemplate(operation: OperationSpec | undefined): string | null {
  if (!operation || operation.body === undefined) return null;
  return typeof operation.body === 'string' ? operation.body : JSON.stringify(operation.body, null, 2);
}

/** What a stored connector takes from a validated spec. */
export function specToConnector(spec: ConnectorSpec): ConnectorDefinition {
  const operation = spec.operations[0];
  const seen = new Set<string>();
  // Every operation's own fields: an instance may run any of them.
  const operationFields = spec.operations.flatMap((candidate) => candidate.params_fields ?? []);
  const schemaFields = [...(spec.fields ?? []), ...operationFields].filter((field) => {
    if (seen.has(field.key)) return false;
    seen.add(field.key);
    return true;
  });
  const authFields: AuthField[] = (spec.auth?.type === 'none' ? [] : (spec.auth?.fields ?? [])).map(
    (field) => ({
      label: field.label ?? field.key,
      key: field.key,
      required: field.required ?? true,
    }),
  );
  return {
    fetchUrlTemplate: operationUrlTemplate(spec, operation),
    schemaFields,
    specificationFields: authFields.map((field) => ({
      key: field.key,
      label: field.label,
      type: 'text' as const,
      private: true,
      required: field.required,
    })),
    authFields,
    method: operation.method ?? 'GET',
    category: spec.category ?? 'API',
  };
}
