import ipaddr from 'ipaddr.js';

/**
 * Which addresses the service may send webhooks to (the SSRF guard's rules; pure, no I/O).
 * Only public unicast addresses, unless the operator lists ranges in WEBHOOK_ALLOWED_CIDRS
 * (`127.0.0.0/8` for a receiver on the same machine, `10.0.0.0/8` for one in the VPC).
 * URLs are judged on create and update by targetUrlProblem; hostnames are judged when a request
 * connects (send.ts), on the addresses actually resolved, so DNS rebinding cannot slip past.
 */

type Address = ipaddr.IPv4 | ipaddr.IPv6;

/** Ranges the operator allows whatever their kind, from WEBHOOK_ALLOWED_CIDRS. */
export interface AllowedCidrs {
  readonly ranges: readonly (readonly [Address, number])[];
}

export const NO_ALLOWED_CIDRS: AllowedCidrs = { ranges: [] };

export const ALLOWED_CIDRS_VARIABLE = 'WEBHOOK_ALLOWED_CIDRS';

/**
 * `10.0.0.0/8, fd00::/8 127.0.0.1`: CIDRs separated by commas and/or whitespace; a bare address
 * is a range of one. IPv4 must be four decimal parts (no `127.1`), so the list reads as it acts.
 */
export function parseAllowedCidrs(text: string | undefined): AllowedCidrs {
  const entries = (text ?? '').split(/[\s,]+/).filter((entry) => entry !== '');
  return { ranges: entries.map(parseCidrEntry) };
}

function parseCidrEntry(entry: string): readonly [Address, number] {
  const [address, prefix] = entry.split('/', 2) as [string, string | undefined];
  if (ipaddr.IPv4.isValidFourPartDecimal(address)) {
    if (prefix === undefined) return [ipaddr.IPv4.parse(address), 32];
    if (ipaddr.IPv4.isValidCIDRFourPartDecimal(entry)) return ipaddr.IPv4.parseCIDR(entry);
  } else if (ipaddr.IPv6.isValid(address) && !address.includes('%')) {
    if (prefix === undefined) return [ipaddr.IPv6.parse(address), 128];
    if (ipaddr.IPv6.isValidCIDR(entry)) return ipaddr.IPv6.parseCIDR(entry);
  }
  throw new Error(`${ALLOWED_CIDRS_VARIABLE}: "${entry}" is not an IPv4 or IPv6 CIDR`);
}

let cachedText: string | undefined;
let cachedCidrs: AllowedCidrs = NO_ALLOWED_CIDRS;

/** The operator's allowed ranges; read on every call (tests and operators change it), parsed once per value. */
export function configuredAllowedCidrs(env: NodeJS.ProcessEnv = process.env): AllowedCidrs {
  const text = env[ALLOWED_CIDRS_VARIABLE] ?? '';
  if (text !== cachedText) {
    cachedCidrs = parseAllowedCidrs(text);
    cachedText = text;
  }
  return cachedCidrs;
}

/** What a refused address is, as it reads after "is" (`a loopback address`). */
const IPV4_KINDS: Record<string, string> = {
  unspecified: 'an unspecified address',
  broadcast: 'the broadcast address',
  multicast: 'a multicast address',
  linkLocal: 'a link-local address',
  loopback: 'a loopback address',
  carrierGradeNat: 'a carrier-grade NAT address',
  private: 'a private address',
};

const IPV6_KINDS: Record<string, string> = {
  unspecified: 'an unspecified address',
  linkLocal: 'a link-local address',
  multicast: 'a multicast address',
  loopback: 'a loopback address',
  uniqueLocal: 'a unique-local address',
  // These embed an IPv4 address that a gateway or the host's own stack may turn into a private one.
  rfc6145: 'an IPv4-translated address',
  rfc6052: 'a NAT64 address',
  '6to4': 'a 6to4 address',
  teredo: 'a Teredo address',
};

/** Only 2000::/3 is handed out as global unicast; the rest of "unicast" is unassigned space. */
const GLOBAL_UNICAST_V6 = ipaddr.IPv6.parseCIDR('2000::/3');

interface Refusal {
  /** The address as shown: as given, plus the IPv4 address an IPv4-mapped one stands for. */
  shown: string;
  kind: string;
}

function refusalOf(text: string, allowed: AllowedCidrs): Refusal | undefined {
  const written = bareAddress(text);
  if (!ipaddr.isValid(written)) return { shown: text, kind: 'not an IP address' };
  const address = ipaddr.parse(written);
  if (isAllowed(address, allowed)) return undefined;
  if (address instanceof ipaddr.IPv4) return refusalOfV4(address, written);
  if (address.isIPv4MappedAddress()) {
    // ::ffff:a.b.c.d reaches a.b.c.d over a dual-stack socket: judge it as that address.
    const embedded = address.toIPv4Address();
    const inner = isAllowed(embedded, allowed) ? undefined : refusalOfV4(embedded, embedded.toString());
    return inner && { shown: `${written} (IPv4-mapped ${embedded.toString()})`, kind: inner.kind };
  }
  const range = address.range();
  if (range === 'unicast' && address.match(GLOBAL_UNICAST_V6)) return undefined;
  return { shown: written, kind: IPV6_KINDS[range] ?? 'a reserved address' };
}

function refusalOfV4(address: ipaddr.IPv4, shown: string): Refusal | undefined {
  const range = address.range();
  if (range === 'unicast') return undefined;
  // ipaddr.js's other ranges (reserved, documentation, benchmarking, AS112, AMT) have no receivers.
  return { shown, kind: IPV4_KINDS[range] ?? 'a reserved address' };
}

/** `[::1]` and `fe80::1%eth0` as plain addresses: the brackets of a URL and a zone id say nothing about the range. */
function bareAddress(text: string): string {
  const unbracketed = text.trim().replace(/^\[(.*)\]$/, '$1');
  const zone = unbracketed.indexOf('%');
  return zone === -1 ? unbracketed : unbracketed.slice(0, zone);
}

function isAllowed(address: Address, allowed: AllowedCidrs): boolean {
  return allowed.ranges.some(([base, prefix]) => base.kind() === address.kind() && address.match(base, prefix));
}

/**
 * Undefined when the service may connect to `address`, else why not
 * (`127.0.0.1 is a loopback address`). Anything but public unicast is refused unless allowed.
 */
export function addressRefusal(address: string, allowed: AllowedCidrs): string | undefined {
  const refusal = refusalOf(address, allowed);
  return refusal && `${refusal.shown} is ${refusal.kind}`;
}

/**
 * The problem with a subscription's or outgoing webhook's URL (the caller answers 422), or
 * undefined. No DNS here: a hostname is judged on what it resolves to when a request connects.
 */
export function targetUrlProblem(url: string, allowed: AllowedCidrs = configuredAllowedCidrs()): string | undefined {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return 'is not a valid URL';
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return 'must be an http or https URL';
  // The URL parser has already turned 2130706433, 0x7f.1 and the like into dotted IPv4.
  const host = parsed.hostname;
  if (host.startsWith('[') || ipaddr.IPv4.isValidFourPartDecimal(host)) {
    const refusal = refusalOf(host, allowed);
    return refusal && `must not point at ${refusal.shown}, ${refusal.kind}`;
  }
  const name = host.replace(/\.+$/, '');
  if ((name === 'localhost' || name.endsWith('.localhost')) && refusalOf('127.0.0.1', allowed)) {
    return `must not point at ${name}, a loopback name`;
  }
  return undefined;
}
