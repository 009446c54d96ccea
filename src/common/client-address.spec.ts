import { addressKey, displayAddress } from './client-address';

describe('client addresses', () => {
  it('keys IPv6 clients on their /64, whatever the spelling', () => {
    expect(addressKey('2001:db8:1:2:aaaa::1')).toBe('2001:db8:1:2::/64');
    expect(addressKey('2001:0db8:0001:0002:ffff:ffff:ffff:fffe')).toBe('2001:db8:1:2::/64');
    expect(addressKey('2001:db8:1:3::1')).toBe('2001:db8:1:3::/64');
  });

  it('keys IPv4 clients on their address, also seen through a dual-stack socket', () => {
    expect(addressKey('203.0.113.7')).toBe('203.0.113.7');
    expect(addressKey('::ffff:203.0.113.7')).toBe('203.0.113.7');
  });

  it('shows IPv4 clients of a dual-stack socket as IPv4', () => {
    expect(displayAddress('::ffff:127.0.0.1')).toBe('127.0.0.1');
    expect(displayAddress('::1')).toBe('::1');
    expect(displayAddress(undefined)).toBe('unknown');
  });
});
