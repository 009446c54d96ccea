/** An access token obtained by an OAuth2 exchange or a session login. */
export interface CachedToken {
  access_token: string;
  /** Epoch milliseconds; null when the upstream gave no lifetime. */
  expires_at: number | null;
  /** Epoch milliseconds; tells a short-lived token's lifetime (absent on tokens cached before it was kept). */
  obtained_at?: number;
  /** A rotated refresh token replaces the stored one. */
  refresh_token?: string;
}

/** Keeps an instance's token between runs (encrypted at rest by the implementation). */
export interface TokenStore {
  load(): Promise<CachedToken | null>;
  save(token: CachedToken | null): Promise<void>;
}

/** A store that only lives as long as the object: test reads and one-off look-ups. */
export class MemoryTokenStore implements TokenStore {
  private token: CachedToken | null = null;

  async load(): Promise<CachedToken | null> {
    return this.token;
  }

  async save(token: CachedToken | null): Promise<void> {
    this.token = token;
  }
}
