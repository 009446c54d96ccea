import type { ApiToken } from '../../api/tokens';

const SCOPE_LABELS: Record<string, string> = { stream: 'Streams & OData', query: 'SQL queries' };

/** "Streams & OData, SQL queries" */
export function scopeText(scopes: readonly string[]): string {
  return scopes.map((scope) => SCOPE_LABELS[scope] ?? scope).join(', ');
}

/** The line under a token's name: scopes, when made, last use and expiry, as of `now`. */
export function tokenDetails(token: ApiToken, now: Date): string {
  const day = (iso: string) => new Date(iso).toLocaleDateString();
  const expiry = token.expires_at
    ? new Date(token.expires_at) <= now
      ? `expired ${day(token.expires_at)}`
      : `expires ${day(token.expires_at)}`
    : 'never expires';
  const lastUse = token.last_used_at ? `last used ${day(token.last_used_at)}` : 'never used';
  return `${scopeText(token.scopes)} · created ${day(token.created_at)} · ${lastUse} · ${expiry}`;
}
