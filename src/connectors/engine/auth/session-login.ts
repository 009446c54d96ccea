import type { SessionLogin } from '../../dsl/connector-spec.types';
import { ConnectorFetchError } from '../connector-fetch-error';
import { decodeJson } from '../decoder';
import { encodeBody } from '../request-body';
import { valueAtResponsePath } from '../response-path';
import type { HttpRequest, HttpResponse } from '../safe-http-client';
import { describeUrl } from '../safe-http-client';
import { fillText, fillUrlTemplate } from '../template';

/**
 * The session-token step: one login request (templates over the auth fields) whose answer
 * gives the token later requests carry, from a body path or a response header.
 */
export async function sessionLogin(
  login: SessionLogin,
  loginUrlTemplate: string,
  authData: Record<string, string>,
  send: (request: HttpRequest) => Promise<HttpResponse>,
): Promise<string> {
  const url = fillUrlTemplate(loginUrlTemplate, authData);
  const where = describeUrl(url);
  const method = login.method ?? 'POST';
  const headers: Record<string, string> = { accept: 'application/json' };
  for (const [name, template] of Object.entries(login.headers ?? {}))
    headers[name] = fillText(template, authData);
  let body: string | undefined;
  if (method === 'POST') {
    const filled = fillValues(login.body ?? {}, authData) as Record<string, unknown>;
    const encoded = encodeBody(filled, login.body_format ?? 'json');
    body = encoded.body;
    headers['content-type'] = encoded.contentType;
  }
  const response = await send({ method, url, headers, body });
  if (response.status < 200 || response.status >= 300) {
    throw new ConnectorFetchError(`The session login at ${where} failed (HTTP ${response.status})`, {
      status: response.status,
    });
  }
  let token: unknown;
  if (login.token_header) token = response.headers[login.token_header.toLowerCase()];
  else token = valueAtResponsePath(decodeJson(response, where), login.token_path ?? 'token');
  if (typeof token !== 'string' || token === '') {
    throw new ConnectorFetchError(
      `The session login at ${where} answered no token at '${login.token_header ?? login.token_path ?? 'token'}'`,
    );
  }
  return token;
}

/** Fills every string of a JSON value as a text template. */
function fillValues(value: unknown, values: Record<string, unknown>): unknown {
  if (typeof value === 'string') return fillText(value, values);
  if (Array.isArray(value)) return value.map((item) => fillValues(item, values));
  if (value && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, fillValues(inner, values)]));
  return value;
}
