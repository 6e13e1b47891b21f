// Requests to a public endpoint in development mode: when the integration's events go to its development
// tunnel (delivery.job.ts `forwardedToTunnel`), so do the requests to its public endpoints. The request
// is forwarded to the tunnel as itself: the same method, the path below the endpoint and the query after
// the tunnel URL, its headers (but those of the connection and `x-integration-*`) and its body bytes,
// with `X-Integration-Event: fetch`, an event id, the installation (and space or site) concerned, and the
// signature of event deliveries (signature.ts) over the body. The tunnel's answer is the answer.
import { outboundRequest, OutboundTimeout } from '../http/outbound.js';
import { newId } from '../ids.js';
import { signatureHeader, SIGNATURE_HEADER } from './signature.js';
import type { ScriptTarget } from './script-invocation.js';

/** How long the tunnel may take to answer, and the most of its answer read. */
const TUNNEL_TIMEOUT_MS = 10_000;
const TUNNEL_MAX_BYTES = 5 * 1024 * 1024;

/** Headers that belong to one connection (and the body's framing on it), never passed from one side to the other. */
export const hopByHop = new Set(['connection', 'keep-alive', 'transfer-encoding', 'upgrade', 'content-length', 'proxy-connection', 'te', 'trailer']);
// Not forwarded: those of the connection to this server, and the host, which names this server.
const dropped = new Set([...hopByHop, 'host']);

export interface TunnelRequest {
  tunnelUrl: string;
  /** What follows the endpoint: the path below it (starting with `/`, or empty) and the query. */
  below: string;
  method: string;
  headers: [string, string][];
  body: Buffer;
  target: ScriptTarget;
  /** The integration's signing secret; unsigned without one. */
  signingSecret: string | undefined;
  now: Date;
}

/** The tunnel URL with what follows the endpoint appended (its own query kept ahead of the request's). */
export function tunnelTarget(tunnelUrl: string, below: string): string {
  const url = new URL(tunnelUrl);
  const at = below.indexOf('?');
  const path = at < 0 ? below : below.slice(0, at);
  const query = at < 0 ? '' : below.slice(at + 1);
  url.pathname = `${url.pathname.replace(/\/$/, '')}${path}` || '/';
  if (query) url.search = url.search ? `${url.search}&${query}` : `?${query}`;
  return url.href;
}

/** Forwards the request; the tunnel's status, headers and body. Throws with a readable reason when it cannot be reached. */
export async function forwardToTunnel(request: TunnelRequest) {
  const headers: Record<string, string> = {};
  for (const [key, value] of request.headers) {
    const lower = key.toLowerCase();
    if (!dropped.has(lower) && !lower.startsWith('x-integration-')) headers[lower] = value;
  }
  headers['x-integration-event'] = 'fetch';
  headers['x-integration-event-id'] = newId('evt', request.now.getTime());
  if (request.target.installationId) headers['x-integration-installation-id'] = request.target.installationId;
  if (request.target.spaceId) headers['x-integration-space-id'] = request.target.spaceId;
  if (request.target.siteId) headers['x-integration-site-id'] = request.target.siteId;
  if (request.signingSecret !== undefined) headers[SIGNATURE_HEADER] = signatureHeader(request.signingSecret, request.body, request.now);
  const withBody = request.method !== 'GET' && request.method !== 'HEAD';
  // The tunnel URL is given by the integration's publisher: a user-given URL, held to public addresses.
  return outboundRequest(tunnelTarget(request.tunnelUrl, request.below), { timeoutMs: TUNNEL_TIMEOUT_MS, maxBytes: TUNNEL_MAX_BYTES }, {
    method: request.method,
    headers,
    ...(withBody && { body: request.body }),
    redirect: 'manual',
    origin: 'user',
  }).catch((err: unknown) => {
    throw err instanceof OutboundTimeout ? new Error(`the tunnel did not answer within ${TUNNEL_TIMEOUT_MS} ms`) : err;
  });
}
