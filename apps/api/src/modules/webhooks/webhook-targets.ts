import dns from 'node:dns/promises';
import net from 'node:net';
import { AppError } from '../../lib/app-error';

/** Resolves a host name to its addresses (dns.lookup by default; tests inject their own). */
export type Resolver = (hostname: string) => Promise<{ address: string; family: number }[]>;

export const systemResolver: Resolver = (hostname) =>
  dns.lookup(hostname, { all: true, verbatim: true });

/**
 * Addresses a webhook never reaches (decision 0038): private, link-local, shared, reserved,
 * multicast and unspecified ranges, IPv4 and IPv6. Loopback is separate: allowed only with
 * WEBHOOKS_ALLOW_HTTP=true (development and tests).
 */
const NEVER = new net.BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
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
] as const) {
  NEVER.addSubnet(network, prefix, 'ipv4');
}
for (const [network, prefix] of [
  ['::', 128],
  ['64:ff9b::', 96],
  ['100::', 64],
  ['2001:db8::', 32],
  ['fc00::', 7],
  ['fe80::', 10],
  ['fec0::', 10],
  ['ff00::', 8],
] as const) {
  NEVER.addSubnet(network, prefix, 'ipv6');
}
const LOOPBACK = new net.BlockList();
LOOPBACK.addSubnet('127.0.0.0', 8, 'ipv4');
LOOPBACK.addAddress('::1', 'ipv6');

/** An IPv4 address written as IPv6 (::ffff:10.0.0.1) is judged as the IPv4 address it is. */
function plain(address: string): { address: string; family: 'ipv4' | 'ipv6' } {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return { address: mapped[1]!, family: 'ipv4' };
  return { address, family: net.isIPv6(address) ? 'ipv6' : 'ipv4' };
}

export type AddressKind = 'public' | 'loopback' | 'refused';

export function addressKind(address: string): AddressKind {
  const { address: a, family } = plain(address);
  if (!net.isIP(a)) return 'refused';
  if (LOOPBACK.check(a, family)) return 'loopback';
  if (NEVER.check(a, family)) return 'refused';
  return 'public';
}

export interface CheckedTarget {
  url: URL;
  /** The address the request connects to: the one that was checked (no second lookup). */
  address: string;
  family: 4 | 6;
}

const refused = () => new AppError('WEBHOOK_URL_NOT_ALLOWED');

/**
 * A webhook URL, checked: https (http only to loopback with `allowHttp`), no credentials in it,
 * and every address its host resolves to public (loopback too with `allowHttp`). Throws 400
 * WEBHOOK_URL_NOT_ALLOWED otherwise. Used when an endpoint is saved and again before each
 * delivery, which then connects to the address checked here.
 */
export async function checkWebhookTarget(
  raw: string,
  options: { allowHttp: boolean; resolve: Resolver },
): Promise<CheckedTarget> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw refused();
  }
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && options.allowHttp)) {
    throw refused();
  }
  if (url.username || url.password) throw refused();
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  let addresses: { address: string; family: number }[];
  if (net.isIP(host)) {
    addresses = [{ address: host, family: net.isIP(host) }];
  } else {
    try {
      addresses = await options.resolve(host);
    } catch {
      throw refused();
    }
  }
  if (addresses.length === 0) throw refused();
  const kinds = addresses.map((a) => addressKind(a.address));
  if (kinds.includes('refused')) throw refused();
  const isLoopback = kinds.every((kind) => kind === 'loopback');
  if (kinds.includes('loopback') && !options.allowHttp) throw refused();
  // Plain http only to this machine (development, tests).
  if (url.protocol === 'http:' && !isLoopback) throw refused();
  const first = addresses[0]!;
  return { url, address: first.address, family: first.family === 6 ? 6 : 4 };
}
