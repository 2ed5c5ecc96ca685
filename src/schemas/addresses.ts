/**
 * Which IP addresses are not public (spec "Address rules"): the one check the SDK runs before sending
 * a webhook or connection address and the mock service runs on receipt and on the names it resolves.
 * Plain code over `URL` and strings, no `node:net`: the main entry loads it in browsers and workers.
 *
 * The ranges are those of the IANA special-purpose registries that are not globally reachable, and
 * the IPv6 forms that carry an IPv4 address (mapped, translated, compatible, NAT64, 6to4, Teredo)
 * are judged by the IPv4 address they carry.
 * @module
 */

/**
 * What a host is when it is not public. `reserved` covers the documentation, benchmarking and
 * protocol ranges, `240.0.0.0/4`, and IPv6 space outside global unicast (`2000::/3`).
 * @internal
 */
export type AddressKind = 'loopback' | 'private' | 'link-local' | 'unspecified' | 'multicast' | 'broadcast' | 'reserved';

type Prefix = [network: number[], bits: number];
type Range = [network: number[], bits: number, kind: AddressKind];

/** IPv4 ranges, the more specific first (`255.255.255.255` before `240.0.0.0/4`). */
const V4_RANGES: Range[] = (
  [
    ['0.0.0.0', 8, 'unspecified'], // "this network"
    ['10.0.0.0', 8, 'private'],
    ['100.64.0.0', 10, 'private'], // carrier-grade NAT
    ['127.0.0.0', 8, 'loopback'],
    ['169.254.0.0', 16, 'link-local'],
    ['172.16.0.0', 12, 'private'],
    ['192.0.0.0', 24, 'reserved'], // IETF protocol assignments
    ['192.0.2.0', 24, 'reserved'], // documentation
    ['192.88.99.0', 24, 'reserved'], // 6to4 relay anycast (deprecated)
    ['192.168.0.0', 16, 'private'],
    ['198.18.0.0', 15, 'reserved'], // benchmarking
    ['198.51.100.0', 24, 'reserved'], // documentation
    ['203.0.113.0', 24, 'reserved'], // documentation
    ['224.0.0.0', 4, 'multicast'],
    ['255.255.255.255', 32, 'broadcast'],
    ['240.0.0.0', 4, 'reserved'],
  ] as const
).map(([net, bits, kind]) => [ipv4Bytes(net)!, bits, kind]);

/** IPv6 ranges judged as they are (the forms carrying an IPv4 address follow). */
const V6_RANGES: Range[] = (
  [
    ['::', 128, 'unspecified'],
    ['::1', 128, 'loopback'],
    ['64:ff9b:1::', 48, 'private'], // local-use NAT64: a translator inside a network
    ['100::', 64, 'reserved'], // discard-only
    ['2001:2::', 48, 'reserved'], // benchmarking
    ['2001:db8::', 32, 'reserved'], // documentation
    ['3fff::', 20, 'reserved'], // documentation
    ['5f00::', 16, 'reserved'], // segment routing (SRv6) identifiers
    ['fc00::', 7, 'private'], // unique local
    ['fe80::', 10, 'link-local'],
    ['fec0::', 10, 'private'], // site-local (deprecated, still routed inside networks)
    ['ff00::', 8, 'multicast'],
  ] as const
).map(([net, bits, kind]) => [ipv6Bytes(net)!, bits, kind]);

const prefix = (network: string, bits: number): Prefix => [ipv6Bytes(network)!, bits];
/** IPv6 prefixes whose last 32 bits are an IPv4 address that a host or gateway then reaches. */
const V4_IN_LAST_32: Prefix[] = [
  prefix('::ffff:0:0', 96), // IPv4-mapped
  prefix('::ffff:0:0:0', 96), // IPv4-translated (SIIT)
  prefix('::', 96), // IPv4-compatible (deprecated)
  prefix('64:ff9b::', 96), // NAT64, well-known prefix
];
const SIX_TO_FOUR = prefix('2002::', 16);
const TEREDO = prefix('2001::', 32);
const GLOBAL_UNICAST = prefix('2000::', 3);

/**
 * Classifies a host: an IP literal in any textual form (IPv4 as the URL parser reads it, `127.1` and
 * `0x7f000001` included; IPv6 bracketed or bare, compressed or not, any case, with a dotted IPv4 tail
 * or a `%zone`), `localhost` and `*.localhost` (loopback), or a name. One trailing dot is ignored.
 * Other names are public here: only literals can be judged without resolving them (the service
 * resolves names before every call).
 * @example
 * ```ts
 * addressKind('[::ffff:0:127.0.0.1]'); // 'loopback'
 * addressKind('224.0.0.1'); // 'multicast'
 * addressKind('example.com'); // undefined
 * ```
 * @internal
 */
export function addressKind(hostname: string): AddressKind | undefined {
  const host = withoutTrailingDot(hostname).toLowerCase();
  if (host === 'localhost' || host.endsWith('.localhost')) return 'loopback';
  const bytes = ipBytes(host);
  if (!bytes) return undefined;
  return bytes.length === 4 ? ipv4Kind(bytes) : ipv6Kind(bytes);
}

/** The host name without one trailing dot: `localhost.` names the same host as `localhost`. @internal */
export function withoutTrailingDot(hostname: string): string {
  return hostname.endsWith('.') ? hostname.slice(0, -1) : hostname;
}

/** The bytes of an IP literal (4 for IPv4, 16 for IPv6, brackets optional), or `undefined`. */
function ipBytes(text: string): number[] | undefined {
  const bare = text.startsWith('[') && text.endsWith(']') ? text.slice(1, -1) : text;
  return bare.includes(':') ? ipv6Bytes(bare) : ipv4Bytes(bare);
}

function ipv4Kind(bytes: number[]): AddressKind | undefined {
  return V4_RANGES.find(([net, bits]) => inPrefix(bytes, [net, bits]))?.[2];
}

function ipv6Kind(bytes: number[]): AddressKind | undefined {
  const direct = V6_RANGES.find(([net, bits]) => inPrefix(bytes, [net, bits]));
  if (direct) return direct[2];
  if (V4_IN_LAST_32.some((p) => inPrefix(bytes, p))) return ipv4Kind(bytes.slice(12));
  // 6to4: the IPv4 address of the tunnel's far end is bits 16-47.
  if (inPrefix(bytes, SIX_TO_FOUR)) return ipv4Kind(bytes.slice(2, 6));
  // Teredo: the server in bits 32-63, the client's public address inverted in bits 96-127.
  if (inPrefix(bytes, TEREDO)) return ipv4Kind(bytes.slice(4, 8)) ?? ipv4Kind(bytes.slice(12).map((b) => b ^ 0xff));
  // Everything outside global unicast is unassigned or special: nothing public answers there.
  return inPrefix(bytes, GLOBAL_UNICAST) ? undefined : 'reserved';
}

function inPrefix(bytes: readonly number[], [network, bits]: Prefix): boolean {
  if (bytes.length !== network.length) return false;
  for (let i = 0; i * 8 < bits; i++) {
    const mask = bits - i * 8 >= 8 ? 0xff : (0xff << (8 - (bits - i * 8))) & 0xff;
    if ((bytes[i]! & mask) !== (network[i]! & mask)) return false;
  }
  return true;
}

function isOctet(p: string): boolean {
  return /^\d{1,3}$/.test(p) && Number(p) <= 255;
}

/**
 * Four bytes of an IPv4 literal, read as the URL parser (and so every fetch) reads a host: `127.1`,
 * `0177.0.0.1`, `0x7f000001` and `2130706433` are all `127.0.0.1`.
 */
function ipv4Bytes(text: string): number[] | undefined {
  if (!/^[\da-fx.]+$/i.test(text)) return undefined; // only the characters of IPv4 forms: names are not judged here
  let host: string;
  try {
    host = new URL(`http://${text}/`).hostname;
  } catch {
    return undefined;
  }
  const parts = host.split('.');
  return parts.length === 4 && parts.every(isOctet) ? parts.map(Number) : undefined;
}

/** Sixteen bytes of an IPv6 literal without brackets; a `%zone` (it names an interface) is dropped. */
function ipv6Bytes(text: string): number[] | undefined {
  let s = text.toLowerCase().replace(/%.*$/, '');
  // A dotted IPv4 tail (`::ffff:1.2.3.4`) stands for the last two groups.
  const lastColon = s.lastIndexOf(':');
  if (s.includes('.', lastColon)) {
    const quad = s.slice(lastColon + 1).split('.');
    if (quad.length !== 4 || !quad.every(isOctet)) return undefined;
    const [a, b, c, d] = quad.map(Number) as [number, number, number, number];
    s = `${s.slice(0, lastColon + 1)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const halves = s.split('::');
  if (halves.length > 2) return undefined;
  const groupsOf = (part: string) => (part === '' ? [] : part.split(':'));
  const head = groupsOf(halves[0]!);
  const tail = halves.length === 2 ? groupsOf(halves[1]!) : [];
  const missing = 8 - head.length - tail.length;
  if (halves.length === 2 ? missing < 1 : missing !== 0) return undefined;
  const groups = [...head, ...Array<string>(halves.length === 2 ? missing : 0).fill('0'), ...tail];
  if (!groups.every((g) => /^[\da-f]{1,4}$/.test(g))) return undefined;
  return groups.flatMap((g) => {
    const n = parseInt(g, 16);
    return [n >> 8, n & 0xff];
  });
}
