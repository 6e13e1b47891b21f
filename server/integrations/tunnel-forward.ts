// Development mode: when the integration's events and requests go to its development tunnel
// (delivery.job.ts `forwardedToTunnel`), the tunnel receives what production would hand the script
// (dispatch-protocol.ts), POSTed (or, for a `v1` request to a public endpoint, sent as itself) to the
// tunnel URL: for a `v2` script, the multipart form with the event, the environment and the fetch body,
// exactly as the script would get it; for a `v1` script, the event's JSON with `X-Integration-Event`, or
// the request itself with the path below the endpoint and its query after the tunnel URL. Added to it:
// `X-Integration-Event-Id`, for a `v1` request the installation (and space or site) it concerns (the
// `env` of production has no place in a plain request), and the signature of signature.ts over the body.
// The tunnel's answer is the answer.
import { outboundRequest, OutboundTimeout } from '../http/outbound.js';
import { signatureHeader, SIGNATURE_HEADER } from './signature.js';
import type { ScriptTarget } from './script-invocation.js';

/** How long the tunnel may take to answer, and the most of its answer read. */
export const TUNNEL_TIMEOUT_MS = 10_000;
const TUNNEL_MAX_BYTES = 5 * 1024 * 1024;

/** Headers that belong to one connection (and the body's framing on it), never passed from one side to the other. */
export const hopByHop = new Set(['connection', 'keep-alive', 'transfer-encoding', 'upgrade', 'content-length', 'proxy-connection', 'te', 'trailer']);
// Not forwarded: those of the connection to this server, and the host, which names this server.
const dropped = new Set([...hopByHop, 'host']);

export interface TunnelRequest {
  tunnelUrl: string;
  /** What follows the tunnel URL: the path below the endpoint (starting with `/`, or empty) and the query. */
  below: string;
  method: string;
  headers: [string, string][];
  body: Buffer;
  eventId: string;
  /** For a `v1` request to a public endpoint: the installation (space, site) it concerns, named in headers. */
  target?: ScriptTarget;
  /** The integration's signing secret; unsigned without one. */
  signingSecret: string | undefined;
  now: Date;
  timeoutMs?: number;
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

/** Sends the request to the tunnel; its status, headers and body. Throws with a readable reason when it cannot be reached. */
export async function sendToTunnel(request: TunnelRequest) {
  const headers: Record<string, string> = {};
  for (const [key, value] of request.headers) {
    const lower = key.toLowerCase();
    if (!dropped.has(lower)) headers[lower] = value;
  }
  headers['x-integration-event-id'] = request.eventId;
  if (request.target?.installationId) headers['x-integration-installation-id'] = request.target.installationId;
  if (request.target?.spaceId) headers['x-integration-space-id'] = request.target.spaceId;
  if (request.target?.siteId) headers['x-integration-site-id'] = request.target.siteId;
  if (request.signingSecret !== undefined) headers[SIGNATURE_HEADER] = signatureHeader(request.signingSecret, request.body, request.now);
  const withBody = request.method !== 'GET' && request.method !== 'HEAD';
  const timeoutMs = request.timeoutMs ?? TUNNEL_TIMEOUT_MS;
  // The tunnel URL is given by the integration's publisher: a user-given URL, held to public addresses.
  return outboundRequest(tunnelTarget(request.tunnelUrl, request.below), { timeoutMs, maxBytes: TUNNEL_MAX_BYTES }, {
    method: request.method,
    headers,
    ...(withBody && { body: request.body }),
    redirect: 'manual',
    origin: 'user',
  }).catch((err: unknown) => {
    throw err instanceof OutboundTimeout ? new Error(`no answer within ${timeoutMs} ms`) : err;
  });
}
