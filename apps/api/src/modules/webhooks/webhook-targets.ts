import dns from 'node:dns/promises';
import net from 'node:net';
import ipaddr from 'ipaddr.js';
import { AppError } from '../../lib/app-error';

/** Resolves a host name to its addresses (dns.lookup by default; tests inject their own). */
export type Resolver = (hostname: string) => Promise<{ address: string; family: number }[]>;

export const systemResolver: Resolver = (hostname) =>
  dns.lookup(hostname, { all: true, verbatim: true });

export type AddressKind = 'public' | 'loopback' | 'refused';

/**
 * An IPv4 address: public only in ipaddr.js's `unicast` (decision 0038, 0071). Refused: this
 * network 0/8, private 10/8 172.16/12 192.168/16, carrier-grade NAT 100.64/10, link-local
 * 169.254/16, IETF 192.0.0/24, documentation, benchmarking 198.18/15, 6to4 relays, AS112, AMT,
 * multicast, 240/4 and broadcast. Loopback 127/8 is its own kind.
 */
function ipv4Kind(address: ipaddr.IPv4): AddressKind {
  const range = address.range();
  if (range === 'loopback') return 'loopback';
  return range === 'unicast' ? 'public' : 'refused';
}

const fromBytes = (bytes: number[]) => ipaddr.IPv4.parse(bytes.join('.'));
/** The IPv4 address in bytes `from` to `from + 4` of an IPv6 address, XOR `mask` (Teredo). */
const ipv4At = (bytes: number[], from: number, mask = 0) =>
  fromBytes(bytes.slice(from, from + 4).map((b) => b ^ mask));

const GLOBAL_UNICAST = ipaddr.IPv6.parseCIDR('2000::/3');
const LOCAL_USE_NAT64 = ipaddr.IPv6.parseCIDR('64:ff9b:1::/48');
const IPV4_COMPATIBLE = ipaddr.IPv6.parseCIDR('::/96');

/**
 * An IPv6 address. Forms that carry an IPv4 address are judged as that address, so none reaches
 * a private, loopback or link-local IPv4 host through a translator or tunnel: IPv4-mapped
 * `::ffff:a.b.c.d` (the one form loopback stays loopback: the socket is IPv4's), IPv4-translated
 * `::ffff:0:a.b.c.d`, IPv4-compatible `::a.b.c.d`, NAT64 `64:ff9b::/96` (last 32 bits), 6to4
 * `2002::/16` (bits 16 to 48) and Teredo `2001::/32` (the server, bits 32 to 64, and the client,
 * the last 32 bits inverted). The local-use NAT64 prefix `64:ff9b:1::/48` is refused whole: where
 * it carries its IPv4 address depends on the local prefix length. Otherwise public only in global
 * unicast 2000::/3 outside ipaddr.js's special ranges; loopback ::1 is its own kind; unspecified,
 * unique-local fc00::/7, link-local fe80::/10, site-local, multicast, discard, documentation,
 * benchmarking and the other reserved ranges are refused.
 */
function ipv6Kind(address: ipaddr.IPv6): AddressKind {
  const bytes = address.toByteArray();
  const worst = (...kinds: AddressKind[]): AddressKind =>
    kinds.every((kind) => kind === 'public') ? 'public' : 'refused';
  const range = address.range();
  switch (range) {
    case 'loopback':
      return 'loopback';
    case 'ipv4Mapped':
      return ipv4Kind(address.toIPv4Address());
    case 'rfc6145':
      return worst(ipv4Kind(ipv4At(bytes, 12)));
    case 'rfc6052':
      return address.match(LOCAL_USE_NAT64) ? 'refused' : worst(ipv4Kind(ipv4At(bytes, 12)));
    case '6to4':
      return worst(ipv4Kind(ipv4At(bytes, 2)));
    case 'teredo':
      return worst(ipv4Kind(ipv4At(bytes, 4)), ipv4Kind(ipv4At(bytes, 12, 0xff)));
    case 'unicast':
      if (address.match(IPV4_COMPATIBLE)) return worst(ipv4Kind(ipv4At(bytes, 12)));
      return address.match(GLOBAL_UNICAST) ? 'public' : 'refused';
    default:
      return 'refused';
  }
}

/** What an address is to a webhook; anything that is not exactly an IP address is refused. */
export function addressKind(address: string): AddressKind {
  const family = net.isIP(address);
  if (family === 0) return 'refused';
  try {
    return family === 4
      ? ipv4Kind(ipaddr.IPv4.parse(address))
      : ipv6Kind(ipaddr.IPv6.parse(address));
  } catch {
    return 'refused';
  }
}

/** The port a URL connects to: its own, or its scheme's default. */
const portOf = (url: URL) => (url.port ? Number(url.port) : url.protocol === 'https:' ? 443 : 80);

export interface CheckedTarget {
  /** The URL as the WHATWG parser normalises it (`href` is what is stored and shown). */
  url: URL;
  /** The address the request connects to: the one that was checked (no second lookup). */
  address: string;
  family: 4 | 6;
}

export interface TargetRules {
  /** WEBHOOKS_ALLOW_HTTP: http:// and loopback allowed, loopback on any port. */
  allowHttp: boolean;
  /** WEBHOOKS_ALLOWED_PORTS: the ports any other target may name (443 and 8443 by default). */
  allowedPorts: readonly number[];
  resolve: Resolver;
}

const refused = () => new AppError('WEBHOOK_URL_NOT_ALLOWED');

/**
 * A webhook URL, checked (decisions 0038, 0071): https (http only to loopback with `allowHttp`),
 * no credentials in it, a port of `allowedPorts` (any port to loopback with `allowHttp`), and
 * every address its host resolves to public (loopback too with `allowHttp`). Throws 400
 * WEBHOOK_URL_NOT_ALLOWED otherwise. Used when an endpoint is saved, which stores `url.href`, and
 * again before each delivery, which then connects to the address checked here (a name that now
 * resolves elsewhere is judged on its new address: no DNS rebinding between check and connect).
 * Only a host name is looked up; the target itself is never contacted here.
 */
export async function checkWebhookTarget(raw: string, rules: TargetRules): Promise<CheckedTarget> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw refused();
  }
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && rules.allowHttp)) {
    throw refused();
  }
  if (url.username || url.password) throw refused();
  const portAllowed = rules.allowedPorts.includes(portOf(url));
  // Refused before any lookup when not even loopback could make the port acceptable.
  if (!portAllowed && !rules.allowHttp) throw refused();
  // The parser has already written an IPv4 host in dotted decimal (0x7f.1 is 127.0.0.1) and an
  // IPv6 one compressed in brackets.
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  let addresses: { address: string; family: number }[];
  if (net.isIP(host)) {
    addresses = [{ address: host, family: net.isIP(host) }];
  } else {
    try {
      addresses = await rules.resolve(host);
    } catch {
      throw refused();
    }
  }
  if (addresses.length === 0) throw refused();
  const kinds = addresses.map((a) => addressKind(a.address));
  if (kinds.includes('refused')) throw refused();
  const isLoopback = kinds.every((kind) => kind === 'loopback');
  if (kinds.includes('loopback') && !rules.allowHttp) throw refused();
  // Plain http, and ports outside the list, only to this machine (development, tests).
  if (url.protocol === 'http:' && !isLoopback) throw refused();
  if (!portAllowed && !isLoopback) throw refused();
  const first = addresses[0]!;
  return { url, address: first.address, family: first.family === 6 ? 6 : 4 };
}
