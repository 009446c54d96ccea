import type { RunPlan } from '../run-plan';
import type { HttpRequest, HttpResponse } from '../safe-http-client';
import { isFresh, requestOAuth2Token } from './oauth2-token';
import { sessionLogin } from './session-login';
import { CachedToken, MemoryTokenStore, TokenStore } from './token-store';

/**
 * The auth stage of one run. Static credentials pass through; an OAuth2 exchange
 * (client_credentials / refresh_token) or a session login happens here, its token cached in the
 * plan's store (per instance, encrypted at rest) and renewed before each request that would
 * otherwise go out with it about to expire, and after a 401. Every token it obtains or takes from
 * the store is added to `obtainedTokens`: secrets like the auth data, which the run's messages mask.
 */
export class Authenticator {
  private current: CachedToken | undefined;
  private readonly store: TokenStore;

  constructor(
    private readonly plan: RunPlan,
    private readonly send: (request: HttpRequest) => Promise<HttpResponse>,
    private readonly obtainedTokens: Set<string>,
  ) {
    this.store = plan.tokenStore ?? new MemoryTokenStore();
  }

  /** Whether a 401 is worth one renewal of the token and a second attempt. */
  get renewable(): boolean {
    const auth = this.plan.auth;
    return auth?.type === 'session' || (auth?.type === 'oauth2' && !!auth.grant_type);
  }

  /** The auth data the next request is built with, with a token fresh enough for it under its key. */
  async credentials(): Promise<Record<string, string>> {
    const auth = this.plan.auth;
    if (!this.renewable || !auth) return this.plan.authData;
    if (!isFresh(this.current)) this.current = await this.obtain(false);
    const key = auth.type === 'session' ? 'session_token' : 'access_token';
    return { ...this.plan.authData, [key]: this.current.access_token };
  }

  /** Drops the token the upstream refused; the next credentials() obtains a new one. */
  async renew(): Promise<void> {
    this.current = await this.obtain(true);
  }

  private async obtain(force: boolean): Promise<CachedToken> {
    const token = await this.tokenFor(force);
    for (const secret of [token.access_token, token.refresh_token])
      if (secret) this.obtainedTokens.add(secret);
    return token;
  }

  private async tokenFor(force: boolean): Promise<CachedToken> {
    const auth = this.plan.auth!;
    const base = (this.plan.baseUrl ?? '').replace(/\/+$/, '');
    const resolve = (path: string) =>
      /^https?:\/\//.test(path) ? path : `${base}/${path.replace(/^\/+/, '')}`;
    if (auth.type === 'session') {
      const session = await sessionLogin(
        auth.login!,
        resolve(auth.login!.url_path),
        this.plan.authData,
        this.send,
      );
      // A session token carries no lifetime: it is kept until the upstream answers 401.
      return { access_token: session, expires_at: null };
    }
    const cached = await this.store.load();
    if (cached?.refresh_token) this.obtainedTokens.add(cached.refresh_token);
    if (!force && isFresh(cached)) return cached;
    const token = await requestOAuth2Token(
      auth,
      resolve(auth.token_url ?? ''),
      this.plan.authData,
      cached?.refresh_token,
      this.send,
    );
    const kept = { ...token, refresh_token: token.refresh_token ?? cached?.refresh_token };
    await this.store.save(kept);
    return kept;
  }
}
