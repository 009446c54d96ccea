import type { SpecAuth } from '../../dsl/connector-spec.types';
import { fillText } from '../template';

/**
 * Applies the spec's auth (bearer, api_key, basic, header, oauth2, session) to a request. For
 * oauth2 with a grant_type and for session, the token obtained by the authenticator is in
 * `access_token` / `session_token` of the auth data; plain oauth2 uses a supplied access token.
 */
export function applyAuth(
  auth: SpecAuth | null | undefined,
  authData: Record<string, string>,
  url: URL,
  headers: Record<string, string>,
): void {
  if (!auth || auth.type === 'none') return;
  const firstKey = auth.fields?.[0]?.key;
  const credential = (fallbackKey: string, defaultFormat: (key: string) => string) => {
    const key = firstKey ?? fallbackKey;
    if (!auth.format && !authData[key]) return undefined;
    const value = fillText(auth.format ?? defaultFormat(key), authData);
    return value.trim() === '' ? undefined : value;
  };

  if (auth.type === 'session' || (auth.type === 'oauth2' && auth.grant_type)) {
    const key = auth.type === 'session' ? 'session_token' : 'access_token';
    if (!authData[key]) return;
    const value = fillText(auth.format ?? `Bearer {{${key}}}`, authData);
    if (auth.in === 'query') url.searchParams.set(auth.name ?? 'token', value);
    else headers[auth.name ?? 'Authorization'] = value;
    return;
  }
  switch (auth.type) {
    case 'bearer':
    case 'oauth2': {
      const value = credential(
        auth.type === 'oauth2' ? 'access_token' : 'token',
        (key) => `Bearer {{${key}}}`,
      );
      if (value) headers[auth.name ?? 'Authorization'] = value;
      return;
    }
    case 'api_key': {
      const value = credential('api_key', (key) => `{{${key}}}`);
      if (!value) return;
      if (auth.in === 'query') url.searchParams.set(auth.name ?? 'api_key', value);
      else headers[auth.name ?? 'X-API-Key'] = value;
      return;
    }
    case 'header': {
      const value = credential('value', (key) => `{{${key}}}`);
      if (value) headers[auth.name ?? 'Authorization'] = value;
      return;
    }
    case 'basic': {
      const userKey = auth.fields?.[0]?.key ?? 'username';
      const passwordKey = auth.fields?.[1]?.key ?? 'password';
      const user = authData[userKey];
      if (user === undefined) return;
      const token = Buffer.from(`${user}:${authData[passwordKey] ?? ''}`).toString('base64');
      headers.Authorization = `Basic ${token}`;
      return;
    }
  }
}
