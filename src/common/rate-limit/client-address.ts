import { isIPv4, isIPv6 } from 'node:net';

/**
 * The part of a client address a per-address limit counts on. An IPv6 user is usually handed a
 * whole /64 and can pick a new address in it for every request, so IPv6 counts on its /64 (the
 * first four groups); IPv4 (also when written IPv4-mapped, ::ffff:1.2.3.4) counts whole.
 */
export function rateLimitAddress(ip: string | undefined): string {
  if (!ip) return 'unknown';
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip);
  if (mapped && isIPv4(mapped[1])) return mapped[1];
  if (!isIPv6(ip)) return ip;
  return `${expandIPv6(ip).slice(0, 4).join(':')}::/64`;
}

/** The eight groups of an IPv6 address, '::' filled in, zone dropped, each lower-case without leading zeros. */
function expandIPv6(ip: string): string[] {
  const [head, tail = ''] = ip.split('%')[0].toLowerCase().split('::');
  const groupsOf = (part: string) => (part ? part.split(':') : []);
  // An embedded IPv4 tail (::1.2.3.4) stands for two groups; only the first four groups matter here.
  const headGroups = groupsOf(head);
  const tailGroups = groupsOf(tail).flatMap((group) => (group.includes('.') ? ['0', '0'] : [group]));
  const fill = ip.includes('::') ? Array(8 - headGroups.length - tailGroups.length).fill('0') : [];
  return [...headGroups, ...fill, ...tailGroups].map((group) => parseInt(group, 16).toString(16));
}
