import { rateLimitAddress } from './client-address';

describe('rateLimitAddress', () => {
  it('keys IPv6 on its /64, however the address is written', () => {
    expect(rateLimitAddress('2001:db8:1:2:aaaa::1')).toBe('2001:db8:1:2::/64');
    expect(rateLimitAddress('2001:0DB8:0001:0002:ffff:1:2:3')).toBe('2001:db8:1:2::/64');
    expect(rateLimitAddress('2001:db8::1')).toBe('2001:db8:0:0::/64');
    expect(rateLimitAddress('fe80::1%eth0')).toBe('fe80:0:0:0::/64');
  });

  it('keys IPv4 (also IPv4-mapped) on the whole address', () => {
    expect(rateLimitAddress('10.1.2.3')).toBe('10.1.2.3');
    expect(rateLimitAddress('::ffff:10.1.2.3')).toBe('10.1.2.3');
    expect(rateLimitAddress(undefined)).toBe('unknown');
  });
});
