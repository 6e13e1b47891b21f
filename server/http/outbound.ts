// Every HTTP call the server makes to the outside (OpenAPI source fetches, integration deliveries, the
// translation provider) goes through here: each has a deadline and a cap on the bytes it reads, so a slow
// or huge answer cannot hold a worker or fill its memory. A URL a user gave (not one the operator
// configured) may only reach public addresses: loopback, private, link-local (cloud metadata), CGNAT,
// multicast and reserved ranges are refused unless ALLOW_PRIVATE_FETCH=true. The check is made on the
// address the socket connects to (every address DNS answers, and IP literals), on every redirect hop,
// so a public name resolving to 127.0.0.1 or a redirect to 169.254.169.254 is refused too.
import { lookup as dnsLookup, type LookupAddress, type LookupOptions } from 'node:dns';
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';
import type { Readable } from 'node:stream';
import { Agent, buildConnector, fetch as undiciFetch, interceptors, request as undiciRequest, type Dispatcher } from 'undici';

export interface OutboundLimits {
  timeoutMs: number;
  maxBytes: number;
}

/** The call did not finish within its deadline. */
export class OutboundTimeout extends Error {}
/** A network error, a refused address, a body over the cap, or (fetchText) a non-2xx status. */
export class OutboundFailed extends Error {}
/** The address is not public and ALLOW_PRIVATE_FETCH is not set. */
export class PrivateAddressRefused extends OutboundFailed {}
/** The answer is larger than the cap on the bytes read. */
export class OutboundTooLarge extends OutboundFailed {}

export interface OutboundInit {
  method?: string;
  headers?: Record<string, string>;
  body?: string | Uint8Array;
  /** `follow` (at most 20 hops, each checked) or `manual` (a 3xx is the answer). Default `follow`. */
  redirect?: 'follow' | 'manual';
  /** `user`: a URL someone gave through the API, held to public addresses; `operator`: configured by whoever runs the server. */
  origin: 'user' | 'operator';
}

export interface OutboundResponse {
  status: number;
  headers: Headers;
  body: Buffer;
}

/** Whether ALLOW_PRIVATE_FETCH=true (read at each call: tests and operators set it in the environment; server/config.ts checks its value). */
export function privateFetchAllowed(env: Record<string, string | undefined> = process.env): boolean {
  return env.ALLOW_PRIVATE_FETCH === 'true';
}

/** True for a globally routable unicast address; false for loopback, private, link-local, metadata, CGNAT, reserved… */
export function isPublicAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  let parsed = ipaddr.parse(address);
  // ::ffff:127.0.0.1 is 127.0.0.1.
  if (parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).isIPv4MappedAddress()) parsed = (parsed as ipaddr.IPv6).toIPv4Address();
  // ::7f00:1, the deprecated IPv4-compatible form of 127.0.0.1 (::/96), which ipaddr.js calls `unicast`: a
  // host with IPv6-in-IPv4 tunnelling could route it to the embedded IPv4 address.
  if (parsed.kind() === 'ipv6' && parsed.match(ipaddr.parseCIDR('::/96'))) return false;
  // ipaddr.js names every special-purpose range; only the remainder, `unicast`, is the public internet.
  return parsed.range() === 'unicast';
}

function refusal(host: string, address: string): PrivateAddressRefused {
  return new PrivateAddressRefused(`${host} resolves to ${address}, which is not a public address (set ALLOW_PRIVATE_FETCH=true to allow it)`);
}

/** dns.lookup, failing when any address the name resolves to is not public (so no answer can pick a private one). */
function publicOnlyLookup(
  hostname: string,
  options: LookupOptions,
  callback: (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void,
): void {
  dnsLookup(hostname, { ...options, all: true }, (err, addresses) => {
    if (err) return callback(err, '');
    const bad = addresses.find((a) => !isPublicAddress(a.address));
    if (bad) return callback(refusal(hostname, bad.address) as NodeJS.ErrnoException, '');
    if (options.all) return callback(null, addresses);
    const [first] = addresses;
    if (!first) return callback(Object.assign(new Error(`${hostname} has no address`), { code: 'ENOTFOUND' }), '');
    callback(null, first.address, first.family);
  });
}

let publicOnlyAgent: Dispatcher | undefined;
let anyAgent: Dispatcher | undefined;

/** The dispatcher for user-given URLs: IP literals checked before connecting, names through publicOnlyLookup. */
function publicOnlyDispatcher(): Dispatcher {
  if (publicOnlyAgent) return publicOnlyAgent;
  const connect = buildConnector({ lookup: publicOnlyLookup as never });
  publicOnlyAgent = new Agent({
    connect: (options, callback) => {
      // A literal address never goes through lookup.
      const host = options.hostname.replace(/^\[|\]$/g, '');
      if (isIP(host) && !isPublicAddress(host)) return callback(refusal(host, host), null);
      return connect(options, callback);
    },
  });
  return publicOnlyAgent;
}

function dispatcherFor(origin: OutboundInit['origin']): Dispatcher {
  if (origin === 'user' && !privateFetchAllowed()) return publicOnlyDispatcher();
  anyAgent ??= new Agent();
  return anyAgent;
}

/** The innermost error of a cause chain that says why (undici wraps connector errors in `fetch failed`). */
function rootCause(err: unknown): unknown {
  let current = err;
  for (let depth = 0; depth < 5 && current instanceof Error && current.cause !== undefined; depth++) {
    if (current instanceof PrivateAddressRefused) return current;
    current = current.cause;
  }
  return current;
}

/** An answer whose body is read as it comes (outboundStream): never more than `maxBytes` of it. */
export interface OutboundStreamResponse {
  status: number;
  headers: Headers;
  body: AsyncIterable<Uint8Array>;
}

/** The error an outbound failure is reported as: the deadline, a refused address, or why it failed. */
function outboundError(url: string, limits: OutboundLimits, signal: AbortSignal, err: unknown): Error {
  if (err instanceof OutboundFailed) return err;
  if (signal.aborted) return new OutboundTimeout(`${url} did not answer within ${limits.timeoutMs} ms`);
  const cause = rootCause(err);
  if (cause instanceof PrivateAddressRefused) return new PrivateAddressRefused(`${url} was not fetched: ${cause.message}`);
  const reason = cause instanceof Error ? cause.message : String(cause);
  return new OutboundFailed(`${url} could not be fetched: ${reason}`);
}

/**
 * One HTTP call within `limits` whose body is handed over as it arrives (a large file streamed to disk):
 * the deadline covers the whole body, and reading past `maxBytes` throws OutboundTooLarge.
 */
export async function outboundStream(url: string, limits: OutboundLimits, init: OutboundInit): Promise<OutboundStreamResponse> {
  const signal = AbortSignal.timeout(limits.timeoutMs);
  const tooLarge = () => new OutboundTooLarge(`${url} is larger than ${limits.maxBytes} bytes`);
  let res: Awaited<ReturnType<typeof undiciFetch>>;
  try {
    res = await undiciFetch(url, {
      method: init.method ?? 'GET',
      headers: init.headers,
      body: init.body,
      redirect: init.redirect ?? 'follow',
      signal,
      dispatcher: dispatcherFor(init.origin),
    });
  } catch (err) {
    throw outboundError(url, limits, signal, err);
  }
  const declared = Number(res.headers.get('content-length') ?? 0);
  if (declared > limits.maxBytes) {
    await res.body?.cancel().catch(() => undefined);
    throw tooLarge();
  }
  async function* body(): AsyncGenerator<Uint8Array> {
    let size = 0;
    try {
      if (!res.body) return;
      for await (const chunk of res.body as AsyncIterable<Uint8Array>) {
        size += chunk.byteLength;
        if (size > limits.maxBytes) throw tooLarge();
        yield chunk;
      }
    } catch (err) {
      await res.body?.cancel().catch(() => undefined);
      throw outboundError(url, limits, signal, err);
    }
  }
  return { status: res.status, headers: res.headers as unknown as Headers, body: body() };
}

/** Follows redirects as fetch does (at most 20 hops), each hop through the same dispatcher and its address checks. */
const followRedirects = interceptors.redirect({ maxRedirections: 20 });

/**
 * A request answered as a Node stream, its body a stream (a Git push's pack read from disk) or bytes (a Git
 * fetch's request). A streamed body is sent as the socket takes it: fetch reads it ahead of the socket
 * (measured: +330 MB of memory for a 300 MB body), undici's `request` waits for it. The answer's chunks are
 * the socket's own: fetch copies each into a web stream (a second allocation of every byte a Git fetch
 * receives, 500 MB for a 500 MB pack, which the garbage collector then pays for). `redirect: 'follow'`
 * (bytes only: a stream cannot be sent twice) follows redirects as fetch does; by default none is followed.
 * The same address rules, deadline and cap on the answer.
 */
export async function outboundSend(
  url: string,
  limits: OutboundLimits,
  init: { method: string; headers: Record<string, string>; body: Readable | Uint8Array; origin: OutboundInit['origin']; redirect?: 'follow' | 'manual' },
): Promise<OutboundStreamResponse> {
  const signal = AbortSignal.timeout(limits.timeoutMs);
  const tooLarge = () => new OutboundTooLarge(`${url} is larger than ${limits.maxBytes} bytes`);
  const dispatcher = init.redirect === 'follow' && !('pipe' in init.body) ? dispatcherFor(init.origin).compose(followRedirects) : dispatcherFor(init.origin);
  let res: Awaited<ReturnType<typeof undiciRequest>>;
  try {
    res = await undiciRequest(url, { method: init.method as Dispatcher.HttpMethod, headers: init.headers, body: init.body, signal, dispatcher });
  } catch (err) {
    throw outboundError(url, limits, signal, err);
  }
  if (Number(res.headers['content-length'] ?? 0) > limits.maxBytes) {
    // Destroyed unread, the body reports its abort as an error: this refusal is the outcome.
    res.body.on('error', () => {});
    res.body.destroy();
    throw tooLarge();
  }
  async function* body(): AsyncGenerator<Uint8Array> {
    let size = 0;
    try {
      for await (const chunk of res.body as AsyncIterable<Uint8Array>) {
        size += chunk.byteLength;
        if (size > limits.maxBytes) throw tooLarge();
        yield chunk;
      }
    } catch (err) {
      res.body.destroy();
      throw outboundError(url, limits, signal, err);
    }
  }
  const headers = new Headers();
  for (const [name, value] of Object.entries(res.headers)) if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(', ') : value);
  return { status: res.statusCode, headers, body: body() };
}

/** One HTTP call within `limits`; any status is an answer. Throws OutboundTimeout, PrivateAddressRefused or OutboundFailed. */
export async function outboundRequest(url: string, limits: OutboundLimits, init: OutboundInit): Promise<OutboundResponse> {
  const res = await outboundStream(url, limits, init);
  const chunks: Uint8Array[] = [];
  for await (const chunk of res.body) chunks.push(chunk);
  return { status: res.status, headers: res.headers, body: Buffer.concat(chunks) };
}

/** The body of a 2xx answer as text; a non-2xx status is an OutboundFailed. */
export async function fetchText(url: string, limits: OutboundLimits, init: OutboundInit): Promise<string> {
  const res = await outboundRequest(url, limits, init);
  if (res.status < 200 || res.status > 299) throw new OutboundFailed(`${url} answered ${res.status}`);
  return res.body.toString('utf8');
}
