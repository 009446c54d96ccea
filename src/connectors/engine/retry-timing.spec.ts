import { parseRateLimitReset, parseRetryAfter, upstreamDelay } from './retry-timing';

describe('retry timing', () => {
  it('reads Retry-After as whole or decimal seconds, or as an HTTP date', () => {
    expect(parseRetryAfter('2')).toBe(2000);
    expect(parseRetryAfter('2.0')).toBe(2000);
    expect(parseRetryAfter('0.25')).toBe(250);
    const inFive = new Date(Date.now() + 5000).toUTCString();
    expect(parseRetryAfter(inFive)).toBeGreaterThan(3000);
    expect(parseRetryAfter(inFive)).toBeLessThanOrEqual(5000);
    expect(parseRetryAfter('soon')).toBeUndefined();
    expect(parseRetryAfter(undefined)).toBeUndefined();
  });

  it('reads X-RateLimit-Reset as epoch seconds when large, else as seconds to wait', () => {
    const reset = String(Math.floor(Date.now() / 1000) + 10);
    expect(parseRateLimitReset(reset)).toBeGreaterThan(8000);
    expect(parseRateLimitReset(reset)).toBeLessThanOrEqual(10_000);
    expect(parseRateLimitReset('3')).toBe(3000);
    expect(parseRateLimitReset('x')).toBeUndefined();
  });

  it('prefers Retry-After over X-RateLimit-Reset', () => {
    expect(upstreamDelay({ 'retry-after': '1', 'x-ratelimit-reset': '5' })).toBe(1000);
    expect(upstreamDelay({ 'x-ratelimit-reset': '5' })).toBe(5000);
    expect(upstreamDelay({})).toBeUndefined();
  });
});
