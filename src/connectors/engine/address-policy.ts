import { BlockList, isIP, isIPv6 } from 'node:net';

/**
 * Addresses a connector must never reach unless private networks are explicitly allowed:
 * loopback, private, link-local (incl. cloud metadata 169.254.169.254), carrier-grade NAT,
 * multicast and reserved ranges, in IPv4 and IPv6 forms. IPv4-mapped/compatible IPv6 forms are
 * matched against the IPv4 rules by BlockList itself; NAT64 and 6to4 embed an IPv4 we check too.
 */
const BLOCKED_V4: Array<[string, number]> = [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
];

const BLOCKED_V6: Array<[string, number]> = [
  ['::', 128],
  ['::1', 128],
  ['::', 96], // IPv4-compatible (deprecated) forms
  ['64:ff9b:1::', 48], // local-use NAT64 (RFC 8215): translates to whatever the operator chose
  ['100::', 64],
  ['2001:db8::', 32],
  ['fc00::', 7],
  ['fe80::', 10],
  ['fec0::', 10],
  ['ff00::', 8],
];

const blockList = new BlockList();
for (const [network, prefix] of BLOCKED_V4) blockList.addSubnet(network, prefix, 'ipv4');
for (const [network, prefix] of BLOCKED_V6) blockList.addSubnet(network, prefix, 'ipv6');

/** Expands an IPv6 text form into its 8 16-bit groups (handles `::` and a trailing dotted IPv4). */
function ipv6Groups(address: string): number[] {
  let text = address.toLowerCase().split('%')[0];
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted) {
    const bytes = dotted[1].split('.').map(Number);
    text =
      text.slice(0, -dotted[1].length) +
      `${((bytes[0] << 8) | bytes[1]).toString(16)}:${((bytes[2] << 8) | bytes[3]).toString(16)}`;
  }
  const [head, tail] = text.split('::');
  const headGroups = head ? head.split(':') : [];
  const tailGroups = tail !== undefined && tail !== '' ? tail.split(':') : [];
  const missing = 8 - headGroups.length - tailGroups.length;
  const all = tail === undefined ? headGroups : [...headGroups, ...Array(missing).fill('0'), ...tailGroups];
  return all.map((group) => parseInt(group, 16));
}

/**
 * The IPv4 address embedded in NAT64 (64:ff9b::/96), IPv4-translated (::ffff:0:0:0/96, SIIT) or
 * 6to4 (2002::/16) forms, if any.
 */
function embeddedIpv4(address: string): string | undefined {
  const groups = ipv6Groups(address);
  const toV4 = (high: number, low: number) => [high >> 8, high & 255, low >> 8, low & 255].join('.');
  if (groups[0] === 0x64 && groups[1] === 0xff9b && groups.slice(2, 6).every((group) => group === 0)) {
    return toV4(groups[6], groups[7]);
  }
  if (groups.slice(0, 4).every((group) => group === 0) && groups[4] === 0xffff && groups[5] === 0) {
    return toV4(groups[6], groups[7]);
  }
  if (groups[0] === 0x2002) return toV4(groups[1], groups[2]);
  return undefined;
}

/** True when the literal IP address lies in a range connectors may not reach. */
export function isBlockedAddress(address: string): boolean {
  const bare = address.replace(/^\[|\]$/g, '');
  const family = isIP(bare);
  if (family === 0) return true; // not an address at all: refuse rather than guess
  if (family === 4) return blockList.check(bare, 'ipv4');
  if (blockList.check(bare, 'ipv6')) return true;
  const embedded = isIPv6(bare) ? embeddedIpv4(bare) : undefined;
  return embedded !== undefined && blockList.check(embedded, 'ipv4');
}
