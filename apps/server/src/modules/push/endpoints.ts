/**
 * Where this server may send a push (docs/decisions/web-push.md). A push endpoint is a
 * URL a member hands us, and the server then POSTs to it: left open, that is a request forgery
 * (SSRF) into the server's own network. So an endpoint must be https to a public host name (the
 * push services' endpoints are), on the default port, with no credentials; an IP address, a
 * single-label or local name (localhost, *.local, *.internal…) is refused when subscribing, and
 * at send time every address the name resolves to must be public (a name that later resolves to
 * a private address is refused then: the connection's own lookup checks it).
 *
 * A server with QA control on and `pushLoopback` (PUSH_LOOPBACK=on) also accepts http and
 * loopback endpoints (127.0.0.0/8, ::1, localhost), for a push service on this machine (tests).
 */
import { lookup as dnsLookup, type LookupAddress, type LookupOptions } from 'node:dns';
import { BlockList, isIP } from 'node:net';

export interface EndpointPolicy {
  /** http and loopback hosts are accepted too. */
  loopback: boolean;
}

export const ENDPOINT_MESSAGES = {
  https: 'Push endpoint must be an https URL',
  credentials: 'Push endpoint must not carry a user name or password',
  port: 'Push endpoint must use the default https port',
  host: 'Push endpoint must name a public host of a push service',
  address: (address: string) => `Push endpoint resolves to ${address}, which is not a public address`,
} as const;

/** Addresses that are not the public Internet: private, loopback, link-local, shared, reserved, multicast. */
const notPublic = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.88.99.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const)
  notPublic.addSubnet(net, prefix, 'ipv4');
for (const [net, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['::ffff:0:0', 96],
  ['64:ff9b::', 96],
  ['100::', 64],
  ['2001:db8::', 32],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
] as const)
  notPublic.addSubnet(net, prefix, 'ipv6');

const loopbackNets = new BlockList();
loopbackNets.addSubnet('127.0.0.0', 8, 'ipv4');
loopbackNets.addAddress('::1', 'ipv6');

const family = (address: string) => (isIP(address) === 6 ? 'ipv6' : 'ipv4');
const isLoopbackAddress = (address: string) => loopbackNets.check(address, family(address));
/** An address a push may go to under `policy`. */
export const allowedAddress = (address: string, policy: EndpointPolicy) =>
  !notPublic.check(address, family(address)) || (policy.loopback && isLoopbackAddress(address));

const LOCAL_SUFFIXES = ['.localhost', '.local', '.internal', '.intranet', '.lan', '.home', '.corp', '.arpa'];
const bare = (hostname: string) => hostname.replace(/^\[|\]$/g, '').toLowerCase();

/** Why `endpoint` may not be pushed to under `policy`, or null when it may (its name's addresses are checked at send time). */
export function endpointRefusal(endpoint: string, policy: EndpointPolicy): string | null {
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    return ENDPOINT_MESSAGES.https;
  }
  const host = bare(url.hostname);
  const loopbackHost = host === 'localhost' || (isIP(host) !== 0 && isLoopbackAddress(host));
  if (url.username || url.password) return ENDPOINT_MESSAGES.credentials;
  if (policy.loopback && loopbackHost)
    return url.protocol === 'https:' || url.protocol === 'http:' ? null : ENDPOINT_MESSAGES.https;
  if (url.protocol !== 'https:') return ENDPOINT_MESSAGES.https;
  if (url.port !== '') return ENDPOINT_MESSAGES.port;
  if (isIP(host) !== 0 || !host.includes('.') || host === 'localhost') return ENDPOINT_MESSAGES.host;
  if (LOCAL_SUFFIXES.some((suffix) => host.endsWith(suffix))) return ENDPOINT_MESSAGES.host;
  return null;
}

type LookupCallback = (
  error: NodeJS.ErrnoException | null,
  address: string | LookupAddress[],
  family?: number,
) => void;

/**
 * dns.lookup for the push request's connection: answers only addresses `policy` allows, so a host
 * name that resolves to a private address (or is made to, between subscribing and sending) is
 * never connected to.
 */
export function guardedLookup(policy: EndpointPolicy) {
  return (hostname: string, options: LookupOptions, callback: LookupCallback) => {
    dnsLookup(hostname, { ...options, all: true }, (error, addresses) => {
      if (error) return callback(error, '');
      const list = addresses;
      const refused = list.find((a) => !allowedAddress(a.address, policy));
      if (refused || list.length === 0) {
        const failure: NodeJS.ErrnoException = new Error(
          ENDPOINT_MESSAGES.address(refused?.address ?? 'nothing'),
        );
        failure.code = 'EPUSHADDRESS';
        return callback(failure, '');
      }
      if (options.all) return callback(null, list);
      return callback(null, list[0]!.address, list[0]!.family);
    });
  };
}
