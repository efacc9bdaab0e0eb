import { BlockList, isIP } from 'node:net';

/**
 * Where a webhook may be sent (no server-side request forgery): the kind of an IP address, from the IANA special-purpose
 * registries. Only `public` addresses are reachable in AWS; the local runtime also allows `loopback` (a receiver on the
 * developer's machine). The delivery resolves the host at every attempt and checks every address it got (DNS rebinding).
 */
export type AddressKind =
  | 'public'
  | 'loopback'
  | 'private'
  | 'link-local'
  | 'unique-local'
  | 'shared'
  | 'multicast'
  | 'unspecified'
  | 'reserved';

// biome-ignore format: one range a line, read down like a table
const RANGES: readonly [AddressKind, string, number, 'ipv4' | 'ipv6'][] = [
  ['unspecified', '0.0.0.0', 8, 'ipv4'],           // "this network"
  ['private', '10.0.0.0', 8, 'ipv4'],
  ['shared', '100.64.0.0', 10, 'ipv4'],            // carrier-grade NAT
  ['loopback', '127.0.0.0', 8, 'ipv4'],
  ['link-local', '169.254.0.0', 16, 'ipv4'],       // the instance metadata service (169.254.169.254) among them
  ['private', '172.16.0.0', 12, 'ipv4'],
  ['reserved', '192.0.0.0', 24, 'ipv4'],           // IETF protocol assignments
  ['reserved', '192.0.2.0', 24, 'ipv4'],           // documentation
  ['reserved', '192.88.99.0', 24, 'ipv4'],         // 6to4 relay anycast (deprecated)
  ['private', '192.168.0.0', 16, 'ipv4'],
  ['reserved', '198.18.0.0', 15, 'ipv4'],          // benchmarking
  ['reserved', '198.51.100.0', 24, 'ipv4'],        // documentation
  ['reserved', '203.0.113.0', 24, 'ipv4'],         // documentation
  ['multicast', '224.0.0.0', 4, 'ipv4'],
  ['reserved', '240.0.0.0', 4, 'ipv4'],            // future use and broadcast
  ['unspecified', '::', 128, 'ipv6'],
  ['loopback', '::1', 128, 'ipv6'],
  ['reserved', '::ffff:0:0:0', 96, 'ipv6'],        // IPv4-translated (SIIT)
  ['reserved', '64:ff9b:1::', 48, 'ipv6'],         // local-use NAT64: behind it, any IPv4 network
  ['reserved', '100::', 64, 'ipv6'],               // discard
  ['reserved', '2001::', 23, 'ipv6'],              // IETF protocol assignments (Teredo among them)
  ['reserved', '2001:db8::', 32, 'ipv6'],          // documentation
  ['reserved', '2002::', 16, 'ipv6'],              // 6to4: an IPv4 address inside
  ['unique-local', 'fc00::', 7, 'ipv6'],           // AWS's IPv6 metadata service (fd00:ec2::254) among them
  ['link-local', 'fe80::', 10, 'ipv6'],
  ['reserved', 'fec0::', 10, 'ipv6'],              // site-local (deprecated, still routed inside some sites)
  ['multicast', 'ff00::', 8, 'ipv6'],
];

const LISTS = new Map<AddressKind, BlockList>();
for (const [kind, network, prefix, family] of RANGES) {
  const list = LISTS.get(kind) ?? new BlockList();
  list.addSubnet(network, prefix, family);
  LISTS.set(kind, list);
}

/** An IPv6 address as the URL parser writes it: one spelling per address (compressed, hex, lower case). */
const canonical = (address: string): string => new URL(`http://[${address}]/`).hostname.slice(1, -1);

/**
 * The IPv4 address inside an IPv4-mapped (`::ffff:0:0/96`), IPv4-compatible or NAT64 (`64:ff9b::/96`) IPv6 one, and
 * whether it is mapped (checked here: node's BlockList takes an IPv4-mapped subnet for every IPv4 address).
 */
function embeddedIpv4(address: string): { inner: string; mapped: boolean } | undefined {
  const m = /^(::ffff:|::|64:ff9b::)([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(canonical(address));
  if (!m) return undefined;
  const n = (Number.parseInt(m[2]!, 16) << 16) | Number.parseInt(m[3]!, 16);
  return { inner: [24, 16, 8, 0].map((s) => (n >>> s) & 255).join('.'), mapped: m[1] === '::ffff:' };
}

/**
 * The kind of an IP address (text as `dns.lookup` gives it, or as in a URL without brackets); not an IP: undefined.
 * An IPv6 address with an IPv4 one inside is at least as closed as the one inside; an IPv4-mapped one is closed
 * whatever it holds (a receiver's IPv4 address is given as one), the well-known NAT64 prefix is what it holds.
 */
export function addressKind(address: string): AddressKind | undefined {
  const family = isIP(address);
  if (!family) return undefined;
  if (family === 6) {
    const embedded = address !== '::' && address !== '::1' ? embeddedIpv4(address) : undefined;
    if (embedded) {
      const kind = addressKind(embedded.inner)!;
      return kind === 'public' && embedded.mapped ? 'reserved' : kind;
    }
  }
  const type = family === 4 ? 'ipv4' : 'ipv6';
  for (const [kind, list] of LISTS) if (list.check(address, type)) return kind;
  return 'public';
}

/** What the runtime may reach: in AWS only public addresses; locally loopback too. */
export interface TargetPolicy {
  /** `https:` only (AWS), or `http:` too (local). */
  schemes: readonly string[];
  /** The address kinds allowed besides `public`. */
  allow: readonly AddressKind[];
}

export const AWS_TARGETS: TargetPolicy = { schemes: ['https:'], allow: [] };
export const LOCAL_TARGETS: TargetPolicy = { schemes: ['http:', 'https:'], allow: ['loopback'] };

/** Why an address may not be reached under a policy, or undefined when it may. */
export function refusedAddress(address: string, policy: TargetPolicy): string | undefined {
  const kind = addressKind(address);
  if (!kind) return `not an IP address: ${address}`;
  return kind === 'public' || policy.allow.includes(kind) ? undefined : `${kind} address ${address} refused`;
}

/** The host of a URL as an address (`[::1]` -> `::1`), when it is an IP literal. */
export const literalAddress = (url: URL): string | undefined => {
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  return isIP(host) ? host : undefined;
};

/**
 * Why a subscription URL is refused before any request (scheme, credentials in it, a literal address that is not
 * allowed), or undefined. Host names are resolved and checked at each delivery.
 */
export function refusedUrl(text: string, policy: TargetPolicy): string | undefined {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return 'Not a valid URL.';
  }
  if (!policy.schemes.includes(url.protocol))
    return `URL scheme must be ${policy.schemes.map((s) => s.slice(0, -1)).join(' or ')}.`;
  if (url.username || url.password) return 'URL must not carry credentials.';
  const literal = literalAddress(url);
  if (literal) return refusedAddress(literal, policy);
  if (url.hostname === 'localhost' && !policy.allow.includes('loopback')) return 'loopback address localhost refused';
  return undefined;
}
