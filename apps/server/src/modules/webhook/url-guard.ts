import { lookup, type LookupAddress, type LookupAllOptions, type LookupOneOptions } from 'node:dns';
import { BlockList, isIP } from 'node:net';
import { withDeadline } from '../../platform/outbound.ts';

/**
 * Addresses a webhook may reach only when a system administrator allowed it: this machine's loopback, the unspecified
 * address (which reaches it too) and link-local (cloud metadata services live there).
 */
const OWN_MACHINE = new BlockList();
OWN_MACHINE.addSubnet('127.0.0.0', 8, 'ipv4');
OWN_MACHINE.addSubnet('0.0.0.0', 8, 'ipv4');
OWN_MACHINE.addSubnet('169.254.0.0', 16, 'ipv4');
OWN_MACHINE.addAddress('::1', 'ipv6');
OWN_MACHINE.addAddress('::', 'ipv6');
OWN_MACHINE.addSubnet('fe80::', 10, 'ipv6');

/** True for an address of the console's own machine or link (an IPv4-mapped IPv6 address as its IPv4 one). */
export function isOwnMachineAddress(address: string): boolean {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return OWN_MACHINE.check(mapped[1] as string, 'ipv4');
  const family = isIP(address);
  if (family === 0) return true;
  return OWN_MACHINE.check(address, family === 4 ? 'ipv4' : 'ipv6');
}

export class RefusedAddress extends Error {
  constructor(
    readonly reason: 'scheme' | 'loopback' | 'unresolved',
    readonly host: string,
  ) {
    super(reason === 'scheme' ? 'only http and https are sent to' : reason === 'loopback' ? `address of ${host} refused (own machine)` : `host ${host} cannot be resolved`);
    this.name = 'RefusedAddress';
  }
}

/** The URL's host as a name or an address (an IPv6 literal without its brackets). */
export function hostOf(url: URL): string {
  return url.hostname.replace(/^\[|\]$/g, '');
}

/** A name that does not resolve within this long is taken as unresolved (a form must not hang on a slow resolver). */
const LOOKUP_TIMEOUT_MS = 3000;

function resolveAll(host: string): Promise<LookupAddress[]> {
  return withDeadline(LOOKUP_TIMEOUT_MS, () => new Promise((resolve, reject) => lookup(host, { all: true, verbatim: true }, (error, addresses) => (error ? reject(error) : resolve(addresses)))));
}

/**
 * Checks where a webhook URL leads: http(s) only, and (unless `allowLoopback`) none of the addresses its host resolves
 * to is this machine's. Throws RefusedAddress. Run when a subscription is saved; each attempt checks the address it
 * connects to again (`guardedLookup`), as a name may resolve elsewhere later.
 */
export async function checkWebhookUrl(text: string, allowLoopback: boolean): Promise<URL> {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new RefusedAddress('scheme', '');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new RefusedAddress('scheme', url.protocol);
  const host = hostOf(url);
  if (host === '') throw new RefusedAddress('unresolved', host);
  if (isIP(host) !== 0) {
    if (!allowLoopback && isOwnMachineAddress(host)) throw new RefusedAddress('loopback', host);
    return url;
  }
  let addresses: LookupAddress[];
  try {
    addresses = await resolveAll(host);
  } catch {
    throw new RefusedAddress('unresolved', host);
  }
  if (addresses.length === 0) throw new RefusedAddress('unresolved', host);
  if (!allowLoopback && addresses.some((a) => isOwnMachineAddress(a.address))) throw new RefusedAddress('loopback', host);
  return url;
}

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/**
 * A `lookup` for http.request that refuses this machine's addresses (unless allowed) at the moment of connecting:
 * the address checked is the address connected to.
 */
export function guardedLookup(allowLoopback: boolean) {
  return (hostname: string, options: LookupOneOptions | LookupAllOptions, callback: LookupCallback): void => {
    lookup(hostname, { ...options, all: true }, (error, addresses) => {
      if (error) return callback(error, []);
      const kept = allowLoopback ? addresses : addresses.filter((a) => !isOwnMachineAddress(a.address));
      if (kept.length === 0 || kept.length !== addresses.length) return callback(new RefusedAddress('loopback', hostname), []);
      if ((options as LookupAllOptions).all) return callback(null, kept);
      const [first] = kept as [LookupAddress];
      callback(null, first.address, first.family);
    });
  };
}
