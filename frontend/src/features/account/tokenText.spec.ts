import type { ApiToken } from '../../api/tokens';
import { scopeText, tokenDetails } from './tokenText';

const base: ApiToken = {
  id: 'a',
  name: 'Power BI',
  scopes: ['stream'],
  hint: 'dmt_abcdef…',
  created_at: '2026-01-02T10:00:00.000Z',
  expires_at: null,
  last_used_at: null,
};
const now = new Date('2026-06-01T00:00:00Z');
const day = (iso: string) => new Date(iso).toLocaleDateString();

describe('token texts', () => {
  it('names the scopes as people read them', () => {
    expect(scopeText(['stream', 'query'])).toBe('Streams & OData, SQL queries');
  });

  it('says a token was never used and never expires', () => {
    expect(tokenDetails(base, now)).toBe(
      `Streams & OData · created ${day(base.created_at)} · never used · never expires`,
    );
  });

  it('tells a live expiry from a past one', () => {
    const later = '2026-07-01T00:00:00.000Z';
    const earlier = '2026-05-01T00:00:00.000Z';
    expect(tokenDetails({ ...base, expires_at: later }, now)).toContain(`expires ${day(later)}`);
    expect(tokenDetails({ ...base, expires_at: earlier }, now)).toContain(`expired ${day(earlier)}`);
  });

  it('shows the last use', () => {
    const used = '2026-05-20T08:00:00.000Z';
    expect(tokenDetails({ ...base, last_used_at: used }, now)).toContain(`last used ${day(used)}`);
  });
});
