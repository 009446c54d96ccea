import ipaddr from 'ipaddr.js';

/**
 * The address as people read it: an IPv4 client seen through a dual-stack socket
 * (`::ffff:127.0.0.1`) is shown as IPv4.
 */
export function displayAddress(ip: string | undefined): string {
  if (!ip || !ipaddr.isValid(ip)) return ip ?? 'unknown';
  const address = ipaddr.parse(ip);
  if (address.kind() === 'ipv6' && (address as ipaddr.IPv6).isIPv4MappedAddress())
    return (address as ipaddr.IPv6).toIPv4Address().toString();
  return address.toString();
}

/**
 * The key per-address limits count under. One IPv6 subscriber gets a whole /64 (and often far
 * more), so keying on the full address would let a client rotate through 2^64 addresses around
 * every limit: an IPv6 client is keyed on its /64, an IPv4 one on its address.
 */
export function addressKey(ip: string | undefined): string {
  if (!ip || !ipaddr.isValid(ip)) return ip ?? 'unknown';
  const address = ipaddr.parse(ip);
  if (address.kind() === 'ipv4') return address.toString();
  const v6 = address as ipaddr.IPv6;
  if (v6.isIPv4MappedAddress()) return v6.toIPv4Address().toString();
  const prefix = v6.parts.slice(0, 4).map((part) => part.toString(16));
  return `${prefix.join(':')}::/64`;
}
