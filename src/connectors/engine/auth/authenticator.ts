import type { RunPlan } from '../run-plan';
import type { HttpRequest, HttpResponse } from '../safe-http-client';
import { isFresh, requestOAuth2Token } from './oauth2-token';
import { sessionLogin } from './session-login';
import { MemoryTokenStore, TokenStore } from './token-store';

/**
 * The auth stage of one run. Static credentials pass through; an OAuth2 exchange
 * (client_credentials / refresh_token) or a session login happens here, its token cached in the
 * plan's store (per instance, encrypted at rest) and renewed before expiry or after a 401.
 */
export class Authenticator {
  private current: string | undefined;
  private readonly store: TokenStore;

  constructor(
    private readonly plan: RunPlan,
    private readonly send: (request: HttpRequest) => Promise<HttpResponse>,
  ) {
    this.store = plan.tokenStore ?? new MemoryTokenStore();
  }

  /** Whether a 401 is worth one renewal of the token and a second attempt. */
  get renewable(): boolean {
    const auth = this.plan.auth;
    return auth?.type === 'session' || (auth?.type === 'oauth2' && !!auth.grant_type);
  }

  /** The auth data requests are built with, with the obtained token under its key. */
  async credentials(): Promise<Record<string, string>> {
    const auth = this.plan.auth;
    if (!this.renewable || !auth) return this.plan.authData;
    this.current ??= await this.obtain(false);
    const key = auth.type === 'session' ? 'session_token' : 'access_token';
    return { ...this.plan.authData, [key]: this.current };
  }

  /** Drops the token the upstream refused; the next credentials() obtains a new one. */
  async renew(): Promise<void> {
    this.current = await this.obtain(true);
  }

  private async obtain(force: boolean): Promise<string> {
    const auth = this.plan.auth!;
    const base = (this.plan.baseUrl ?? '').replace(/\/+$/, '');
    const resolve = (path: string) =>
      /^https?:\/\//.test(path) ? path : `${base}/${path.replace(/^\/+/, '')}`;
    if (auth.type === 'session') {
      return sessionLogin(auth.login!, resolve(auth.login!.url_path), this.plan.authData, this.send);
    }
    const cached = await this.store.load();
    if (!force && isFresh(cached)) return cached.access_token;
    const token = await requestOAuth2Token(
      auth,
      resolve(auth.token_url ?? ''),
      this.plan.authData,
      cached?.refresh_token,
      this.send,
    );
    await this.store.save({ ...token, refresh_token: token.refresh_token ?? cached?.refresh_token });
    return token.access_token;
  }
}
