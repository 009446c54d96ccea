import { EXPIRY_MARGIN_MS, isFresh, renewalMargin } from './oauth2-token';

describe('OAuth2 token freshness', () => {
  const now = 1_000_000_000;
  const token = (lifetimeMs: number, usedMs: number) => ({
    access_token: 'token-value',
    obtained_at: now - usedMs,
    expires_at: now - usedMs + lifetimeMs,
  });

  it('renews a long-lived token a minute before it expires', () => {
    expect(renewalMargin(token(3_600_000, 0))).toBe(EXPIRY_MARGIN_MS);
    expect(isFresh(token(3_600_000, 3_600_000 - 61_000), now)).toBe(true);
    expect(isFresh(token(3_600_000, 3_600_000 - 59_000), now)).toBe(false);
  });

  it('renews a token living less than two minutes halfway through its life', () => {
    expect(renewalMargin(token(2_000, 0))).toBe(1_000);
    expect(renewalMargin(token(90_000, 0))).toBe(45_000);
    expect(isFresh(token(2_000, 900), now)).toBe(true);
    expect(isFresh(token(2_000, 1_100), now)).toBe(false);
  });

  it('keeps the full margin for a token cached without its start, and never renews one without expiry', () => {
    expect(isFresh({ access_token: 'token-value', expires_at: now + 30_000 }, now)).toBe(false);
    expect(isFresh({ access_token: 'token-value', expires_at: null }, now)).toBe(true);
    expect(isFresh(null, now)).toBe(false);
  });
});
