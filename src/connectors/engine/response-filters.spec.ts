import { filterMessage, matchFilter } from './response-filters';

describe('response filters', () => {
  const filters = [
    { http_codes: [404], action: 'ignore' as const },
    { http_codes: [403], header: 'X-RateLimit-Remaining', equals: '0', action: 'retry' as const },
    { path: 'ok', equals: false, action: 'fail' as const, message_path: 'error' },
  ];

  it('matches by status, by header value and by body value, first match wins', () => {
    expect(matchFilter(filters, 404, {}, () => null)?.action).toBe('ignore');
    expect(matchFilter(filters, 403, { 'x-ratelimit-remaining': '0' }, () => null)?.action).toBe('retry');
    expect(matchFilter(filters, 403, { 'x-ratelimit-remaining': '10' }, () => null)).toBeUndefined();
    expect(matchFilter(filters, 200, {}, () => ({ ok: false, error: 'nope' }))?.action).toBe('fail');
    expect(matchFilter(filters, 200, {}, () => ({ ok: true }))).toBeUndefined();
    expect(matchFilter(undefined, 500, {}, () => null)).toBeUndefined();
  });

  it('takes the upstream message from message_path', () => {
    expect(filterMessage(filters[2], { ok: false, error: 'channel_not_found' })).toBe('channel_not_found');
    expect(filterMessage(filters[2], { ok: false })).toBeUndefined();
  });
});
