/** Which IP addresses and host names are not on the public internet: where a `$ref` fetch must not go. */

import { isIPv4, isIPv6 } from 'node:net';

/** An IPv4 block: the first address as a number, the prefix length, and how a message names it. */
type Block4 = [base: number, prefix: number, kind: string];

const V4_BLOCKS: readonly Block4[] = [
  [ip4(0, 0, 0, 0), 8, 'an unspecified ("this network") address'],
  [ip4(10, 0, 0, 0), 8, 'a private address'],
  [ip4(100, 64, 0, 0), 10, 'a carrier-grade NAT (shared) address'],
  [ip4(127, 0, 0, 0), 8, 'a loopback address'],
  [ip4(169, 254, 0, 0), 16, 'a link-local address'],
  [ip4(172, 16, 0, 0), 12, 'a private address'],
  [ip4(192, 0, 0, 0), 24, 'a reserved (IETF protocol) address'],
  [ip4(192, 168, 0, 0), 16, 'a private address'],
  [ip4(198, 18, 0, 0), 15, 'a reserved (benchmarking) address'],
  [ip4(224, 0, 0, 0), 4, 'a multicast address'],
  [ip4(240, 0, 0, 0), 4, 'a reserved or broadcast address'],
];

/**
 * How `address` (an IPv4 or IPv6 literal, brackets and a zone id allowed) is not public: "a
 * loopback address", "a private address", … Undefined for a public address and for anything that
 * is not an IP literal. IPv6 forms that carry an IPv4 address (mapped `::ffff:a.b.c.d`, the old
 * compatible `::a.b.c.d`, NAT64 `64:ff9b::a.b.c.d`) are judged by that address.
 */
export function nonPublicKind(address: string): string | undefined {
  const bare = address.startsWith('[') && address.endsWith(']') ? address.slice(1, -1) : address;
  if (isIPv4(bare)) return kindOf4(parse4(bare));
  const unzoned = bare.replace(/%.*$/, '');
  if (!isIPv6(unzoned)) return undefined;
  return kindOf6(parse6(unzoned));
}

/** Whether a host name always means this machine (`localhost` and names under `.localhost`, RFC 6761). */
export function isLocalName(hostname: string): boolean {
  const name = hostname.toLowerCase().replace(/\.$/, '');
  return name === 'localhost' || name.endsWith('.localhost');
}

function kindOf4(value: number): string | undefined {
  for (const [base, prefix, kind] of V4_BLOCKS) {
    // >>> 0 keeps the comparison unsigned; a /0 mask would need special care, and there is none here.
    const mask = (0xffffffff << (32 - prefix)) >>> 0;
    if (((value & mask) >>> 0) === base) return kind;
  }
  return undefined;
}

function kindOf6(groups: number[]): string | undefined {
  const [g0 = 0, g1 = 0, g2 = 0, g3 = 0, g4 = 0, g5 = 0, g6 = 0, g7 = 0] = groups;
  const embedded = ((g6 << 16) | g7) >>> 0;
  const zeroPrefix = g0 === 0 && g1 === 0 && g2 === 0 && g3 === 0 && g4 === 0;
  if (zeroPrefix && g5 === 0 && g6 === 0 && g7 === 0) return 'an unspecified address';
  if (zeroPrefix && g5 === 0 && g6 === 0 && g7 === 1) return 'a loopback address';
  // ::ffff:a.b.c.d (mapped) and ::a.b.c.d (compatible) reach the IPv4 address itself.
  if (zeroPrefix && (g5 === 0xffff || g5 === 0)) return kindOf4(embedded);
  // 64:ff9b::a.b.c.d is translated to the IPv4 address by a NAT64 gateway.
  if (g0 === 0x64 && g1 === 0xff9b && g2 === 0 && g3 === 0 && g4 === 0 && g5 === 0) return kindOf4(embedded);
  if ((g0 & 0xfe00) === 0xfc00) return 'a private (unique local) address';
  if ((g0 & 0xffc0) === 0xfe80) return 'a link-local address';
  if ((g0 & 0xffc0) === 0xfec0) return 'a private (site-local) address';
  if ((g0 & 0xff00) === 0xff00) return 'a multicast address';
  return undefined;
}

function ip4(a: number, b: number, c: number, d: number): number {
  return ((a << 24) | (b << 16) | (c << 8) | d) >>> 0;
}

/** A dotted IPv4 address (already checked by isIPv4) as a number. */
function parse4(text: string): number {
  const [a = 0, b = 0, c = 0, d = 0] = text.split('.').map(Number);
  return ip4(a, b, c, d);
}

/** An IPv6 address (already checked by isIPv6) as its eight 16-bit groups. */
function parse6(text: string): number[] {
  const toGroups = (part: string): number[] => {
    if (part === '') return [];
    const groups: number[] = [];
    for (const piece of part.split(':')) {
      if (piece.includes('.')) {
        const v4 = parse4(piece);
        groups.push(v4 >>> 16, v4 & 0xffff);
      } else {
        groups.push(Number(`0x${piece}`));
      }
    }
    return groups;
  };
  const gap = text.indexOf('::');
  if (gap === -1) return toGroups(text);
  const head = toGroups(text.slice(0, gap));
  const tail = toGroups(text.slice(gap + 2));
  return [...head, ...new Array<number>(8 - head.length - tail.length).fill(0), ...tail];
}
