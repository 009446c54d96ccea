import type { SpecAuth } from '../../dsl/connector-spec.types';
import { ConnectorFetchError } from '../connector-fetch-error';
import { decodeJson } from '../decoder';
import type { HttpRequest, HttpResponse } from '../safe-http-client';
import { describeUrl } from '../safe-http-client';
import { fillText } from '../template';
import type { CachedToken } from './token-store';

/** A token this close to its expiry is renewed before use… */
export const EXPIRY_MARGIN_MS = 60_000;

/**
 * …unless it lives less than twice the margin: then it is renewed halfway through its life, since a
 * full margin would have it renewed before every request.
 */
export function renewalMargin(token: CachedToken): number {
  if (token.expires_at === null || token.obtained_at === undefined) return EXPIRY_MARGIN_MS;
  return Math.min(EXPIRY_MARGIN_MS, (token.expires_at - token.obtained_at) / 2);
}

export function isFresh(token: CachedToken | null | undefined, now = Date.now()): token is CachedToken {
  return !!token && (token.expires_at === null || token.expires_at - renewalMargin(token) > now);
}

/**
 * The OAuth2 token request (RFC 6749 §4.4 client credentials, §6 refresh token), sent
 * form-encoded with the client credentials in the body. The answer's error text names the
 * upstream's `error` code only: nothing of the request (which holds the secrets) is repeated.
 */
export async function requestOAuth2Token(
  auth: SpecAuth,
  tokenUrl: string,
  authData: Record<string, string>,
  refreshToken: string | undefined,
  send: (request: HttpRequest) => Promise<HttpResponse>,
): Promise<CachedToken> {
  const form = new URLSearchParams();
  if (auth.grant_type === 'refresh_token') {
    form.set('grant_type', 'refresh_token');
    form.set('refresh_token', refreshToken ?? authData.refresh_token ?? '');
  } else form.set('grant_type', 'client_credentials');
  form.set('client_id', authData.client_id ?? '');
  if (authData.client_secret) form.set('client_secret', authData.client_secret);
  if (auth.scopes?.length) form.set('scope', auth.scopes.join(' '));
  for (const [name, template] of Object.entries(auth.token_params ?? {}))
    form.set(name, fillText(template, authData));
  const where = describeUrl(tokenUrl);
  const response = await send({
    method: 'POST',
    url: tokenUrl,
    headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
    body: form.toString(),
  });
  const answer = (safeDecode(response, where) ?? {}) as Record<string, unknown>;
  if (response.status < 200 || response.status >= 300 || typeof answer.access_token !== 'string') {
    const code = typeof answer.error === 'string' ? `: ${answer.error}` : '';
    throw new ConnectorFetchError(
      `The OAuth2 token request to ${where} failed (HTTP ${response.status}${code})`,
      { status: response.status },
    );
  }
  const lifetime = Number(answer.expires_in);
  const obtainedAt = Date.now();
  return {
    access_token: answer.access_token,
    expires_at: Number.isFinite(lifetime) && lifetime > 0 ? obtainedAt + lifetime * 1000 : null,
    obtained_at: obtainedAt,
    ...(typeof answer.refresh_token === 'string' ? { refresh_token: answer.refresh_token } : {}),
  };
}

function safeDecode(response: HttpResponse, where: string): unknown {
  try {
    return decodeJson(response, where);
  } catch {
    return null;
  }
}
