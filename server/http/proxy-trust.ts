// TRUST_PROXY: which proxies in front of the server may say who the client is. Off by default: the client
// is the connection's peer, the protocol the connection's, the host the Host header. Set, as Express's own
// `trust proxy` setting takes it (a hop count, or addresses, subnets and the names loopback, linklocal and
// uniquelocal, comma-separated; `true` trusts every hop), the client address comes from X-Forwarded-For
// (proxy-addr, Express's own library: the first address from the right that is not a trusted proxy), the
// protocol from X-Forwarded-Proto and the host from X-Forwarded-Host, when the peer is trusted. They
// decide the address rate limits count unauthenticated requests by, the Secure flag of cookies, and the
// host a published site is looked up by. The trust is the app's, carried on each request (several apps
// may run in one process).
import type { IncomingMessage } from 'node:http';
import proxyaddr from 'proxy-addr';

export type TrustProxySetting = boolean | number | string;
export type ProxyTrust = (address: string, hop: number) => boolean;

const trustOf = new WeakMap<IncomingMessage, ProxyTrust>();
const trustNone: ProxyTrust = () => false;

/** Express's `compileTrust`: the setting as a function of an address and its hop (0: the peer). Throws on a bad address list. */
export function compileTrust(setting: TrustProxySetting | undefined): ProxyTrust {
  if (setting === undefined || setting === false) return trustNone;
  if (setting === true) return () => true;
  if (typeof setting === 'number') return (_address, hop) => hop < setting;
  return proxyaddr.compile(setting.split(',').map((part) => part.trim()));
}

/** Parses TRUST_PROXY: unset or `false` off, `true`, a hop count, or an address list (checked here, so a typo stops the start). */
export function parseTrustProxy(value: string | undefined): TrustProxySetting | undefined {
  if (value === undefined || value === '' || value === 'false') return undefined;
  if (value === 'true') return true;
  if (/^\d+$/.test(value)) return Number(value);
  compileTrust(value); // throws "invalid IP address: …"
  return value;
}

/** Records the app's trust on a request, as it enters the app. */
export function trustProxies(req: IncomingMessage, trust: ProxyTrust): void {
  if (trust !== trustNone) trustOf.set(req, trust);
}

function trusted(req: IncomingMessage): ProxyTrust | undefined {
  const trust = trustOf.get(req);
  return trust && trust(req.socket.remoteAddress ?? '', 0) ? trust : undefined;
}

/** The first value of a forwarded header (the one the client-facing proxy wrote). */
function firstForwarded(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  const text = Array.isArray(value) ? value[0] : value;
  return text?.split(',', 1)[0].trim() || undefined;
}

/** The client's address: the peer's, or the one the trusted proxies forwarded. */
export function clientAddress(req: IncomingMessage): string {
  const trust = trustOf.get(req);
  return (trust ? proxyaddr(req, trust) : req.socket.remoteAddress) ?? 'unknown';
}

/** Whether the client reached the server over TLS: the connection's own, or as a trusted proxy says. */
export function isSecure(req: IncomingMessage): boolean {
  if ((req.socket as { encrypted?: boolean }).encrypted === true) return true;
  return trusted(req) !== undefined && firstForwarded(req, 'x-forwarded-proto')?.toLowerCase() === 'https';
}

/** The Host the client asked for: the Host header, or the one a trusted proxy forwarded. */
export function requestHost(req: IncomingMessage): string | undefined {
  return (trusted(req) && firstForwarded(req, 'x-forwarded-host')) || req.headers.host;
}
