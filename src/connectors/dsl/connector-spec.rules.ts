import { placeholdersOf } from '../engine/template';
import type { ConnectorSpec } from './connector-spec.types';

/** A mistake in an uploaded spec: where (JSON pointer) and what. */
export type Problem = { path: string; message: string };

/** The token exchange and session login name the auth fields they send. */
export function authExchangeProblems(spec: ConnectorSpec, authKeys: string[]): Problem[] {
  const auth = spec.auth;
  if (!auth) return [];
  const problems: Problem[] = [];
  if (auth.token_url && !auth.grant_type) {
    problems.push({
      path: '/auth/token_url',
      message: 'a token_url needs grant_type client_credentials or refresh_token',
    });
  }
  if (auth.type === 'oauth2' && auth.grant_type) {
    const needed =
      auth.grant_type === 'refresh_token' ? ['client_id', 'refresh_token'] : ['client_id', 'client_secret'];
    const missing = needed.filter((key) => !authKeys.includes(key));
    if (missing.length > 0) {
      problems.push({
        path: '/auth/fields',
        message: `grant_type ${auth.grant_type} needs auth fields ${needed.join(' and ')} (missing: ${missing.join(', ')})`,
      });
    }
  }
  if (auth.type === 'session' && auth.login) {
    const texts: Array<[string, string]> = [
      ['/auth/login/url_path', auth.login.url_path],
      ['/auth/login/body', JSON.stringify(auth.login.body ?? {})],
      ...Object.entries(auth.login.headers ?? {}).map(([name, value]): [string, string] => [
        `/auth/login/headers/${name}`,
        String(value),
      ]),
    ];
    for (const [path, template] of texts)
      for (const placeholder of placeholdersOf(template))
        if (!authKeys.includes(placeholder))
          problems.push({ path, message: `placeholder {{${placeholder}}} does not match any auth field` });
  }
  return problems;
}

/** Pagination, body and parent-stream rules of one operation. */
export function operationProblems(
  spec: ConnectorSpec,
  operation: ConnectorSpec['operations'][number],
  base: string,
): Problem[] {
  const problems: Problem[] = [];
  const method = operation.method ?? 'GET';
  if (operation.pagination?.inject_into === 'body' && method !== 'POST') {
    problems.push({
      path: `${base}/pagination/inject_into`,
      message: 'a page token goes into the body only with method POST',
    });
  }
  if (operation.body_format && method !== 'POST') {
    problems.push({ path: `${base}/body_format`, message: 'a body is sent only with method POST' });
  }
  problems.push(...paginationProblems(operation, base), ...filterProblems(operation, base));
  if (operation.parent) {
    const ids = new Set(spec.operations.map((candidate) => candidate.id));
    if (!ids.has(operation.parent.operation)) {
      problems.push({
        path: `${base}/parent/operation`,
        message: `'${operation.parent.operation}' is not an operation id`,
      });
    } else if (parentCycle(spec, operation.id)) {
      problems.push({ path: `${base}/parent/operation`, message: 'parent streams must not form a cycle' });
    }
  }
  return problems;
}

/** Pagination settings that would make every request the same one, or leave a choice unsaid. */
function paginationProblems(operation: ConnectorSpec['operations'][number], base: string): Problem[] {
  const pagination = operation.pagination;
  if (!pagination) return [];
  const problems: Problem[] = [];
  if (pagination.inject_into === 'path' && !operation.url_path.includes('{{page_token}}')) {
    problems.push({
      path: `${base}/url_path`,
      message: 'with inject_into "path", url_path must hold {{page_token}} where the page token goes',
    });
  }
  const cursorSources = (['cursor_path', 'cursor_header', 'cursor_record_field'] as const).filter(
    (name) => pagination[name] !== undefined,
  );
  if (cursorSources.length > 1) {
    problems.push({
      path: `${base}/pagination/${cursorSources[1]}`,
      message: `give the cursor one source: ${cursorSources.join(', ')} are all set`,
    });
  }
  if (pagination.cursor_param !== undefined && pagination.type !== 'cursor') {
    problems.push({
      path: `${base}/pagination/cursor_param`,
      message: `cursor_param belongs to type "cursor", not "${pagination.type}"`,
    });
  }
  if (cursorSources.length > 0 && pagination.type !== 'cursor') {
    problems.push({
      path: `${base}/pagination/${cursorSources[0]}`,
      message: `${cursorSources[0]} belongs to type "cursor", not "${pagination.type}"`,
    });
  }
  return problems;
}

/** A filter that ignores every successful answer outright would store nothing, silently. */
function filterProblems(operation: ConnectorSpec['operations'][number], base: string): Problem[] {
  const problems: Problem[] = [];
  (operation.response_filters ?? []).forEach((filter, index) => {
    const ignoresSuccess =
      filter.action === 'ignore' && filter.http_codes?.some((code) => code >= 200 && code < 300);
    if (ignoresSuccess && !filter.path && !filter.header) {
      problems.push({
        path: `${base}/response_filters/${index}/http_codes`,
        message: 'ignoring every successful answer would store nothing: add a path or header condition',
      });
    }
  });
  return problems;
}

function parentCycle(spec: ConnectorSpec, start: string): boolean {
  const byId = new Map(spec.operations.map((operation) => [operation.id, operation]));
  const seen = new Set<string>();
  let current = byId.get(start);
  while (current?.parent) {
    if (seen.has(current.id)) return true;
    seen.add(current.id);
    if (current.parent.operation === start) return true;
    current = byId.get(current.parent.operation);
  }
  return false;
}
