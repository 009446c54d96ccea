/**
 * What a connector's spec may hold that only its owner may read: static credentials written into
 * the spec (an API key in a header, a token in the query, a password in the base URL). Others see
 * the spec with those values replaced by HIDDEN_VALUE; placeholders such as `{{api_key}}` are
 * templates, not secrets, and stay.
 */
export const HIDDEN_VALUE = '[hidden]';

/** Headers whose values describe the exchange, never a credential; every other header value is hidden. */
const PLAIN_HEADERS = new Set([
  'accept',
  'accept-encoding',
  'accept-language',
  'cache-control',
  'content-type',
  'user-agent',
]);

/** Query, body and auth names that carry credentials. */
const SECRET_NAME = /auth|key|token|secret|passw|pwd|cookie|session|signature|credential|bearer/i;

const PLACEHOLDER = /\{\{[^}]*\}\}/;

type Json = unknown;

function hideLiteral(value: Json): Json {
  if (typeof value === 'string' && PLACEHOLDER.test(value)) return value;
  return value === undefined || value === null ? value : HIDDEN_VALUE;
}

function isRecord(value: Json): value is Record<string, Json> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function mapEntries(record: Record<string, Json>, hide: (name: string) => boolean): Record<string, Json> {
  return Object.fromEntries(
    Object.entries(record).map(([name, value]) => [name, hide(name) ? hideLiteral(value) : value]),
  );
}

/** A JSON body with the values of credential-named keys hidden, at any depth. */
function hideInBody(body: Json): Json {
  if (Array.isArray(body)) return body.map(hideInBody);
  if (!isRecord(body)) return body;
  return Object.fromEntries(
    Object.entries(body).map(([name, value]) => [
      name,
      SECRET_NAME.test(name) && !isRecord(value) && !Array.isArray(value)
        ? hideLiteral(value)
        : hideInBody(value),
    ]),
  );
}

/** A URL or URL template with its user info and credential-named query values hidden. */
export function hideUrlSecrets(url: string): string {
  return url
    .replace(/^([a-z][a-z0-9+.-]*:\/\/)[^/?#@]*@/i, `$1${HIDDEN_VALUE}@`)
    .replace(/([?&])([^=&#]+)=([^&#]*)/g, (pair, separator: string, name: string, value: string) =>
      SECRET_NAME.test(decodeSafely(name)) && !PLACEHOLDER.test(value)
        ? `${separator}${name}=${HIDDEN_VALUE}`
        : pair,
    );
}

function decodeSafely(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

function hideInOperation(operation: Json): Json {
  if (!isRecord(operation)) return operation;
  const copy: Record<string, Json> = { ...operation };
  if (isRecord(copy.headers))
    copy.headers = mapEntries(copy.headers, (name) => !PLAIN_HEADERS.has(name.toLowerCase()));
  if (isRecord(copy.query)) copy.query = mapEntries(copy.query, (name) => SECRET_NAME.test(name));
  if (typeof copy.url_path === 'string') copy.url_path = hideUrlSecrets(copy.url_path);
  if (copy.body !== undefined) copy.body = hideInBody(copy.body);
  return copy;
}

/** The spec as someone other than its owner may read it. */
export function specWithoutSecrets(spec: Record<string, Json> | null): Record<string, Json> | null {
  if (!spec) return spec;
  const copy: Record<string, Json> = { ...spec };
  if (typeof copy.base_url === 'string') copy.base_url = hideUrlSecrets(copy.base_url);
  if (isRecord(copy.auth) && typeof copy.auth.format === 'string') {
    copy.auth = { ...copy.auth, format: hideLiteral(copy.auth.format) };
  }
  if (Array.isArray(copy.operations)) copy.operations = copy.operations.map(hideInOperation);
  return copy;
}
