// Node's own request and response, as the paths served without Express use them (the operations under
// /v1, published pages): the URL split into path and query, and answers written as Express's `res.send`,
// `res.json` and `res.redirect` wrote them. A leaf: areas may use it.
import type { IncomingMessage, ServerResponse } from 'node:http';
import encodeUrl from 'encodeurl';
import { jsonText } from './json-text.js';

/** A request's URL (`req.url`) as its path and its query string (without the `?`; '' when none). */
export function pathAndQuery(url: string): { path: string; query: string } {
  const at = url.indexOf('?');
  return at < 0 ? { path: url, query: '' } : { path: url.slice(0, at), query: url.slice(at + 1) };
}

/** `text` with its type (charset utf-8) and length; HEAD gets the headers only. */
export function sendText(req: IncomingMessage, res: ServerResponse, status: number, type: string, text: string): void {
  res.statusCode = status;
  res.setHeader('Content-Type', `${type}; charset=utf-8`);
  res.setHeader('Content-Length', Buffer.byteLength(text));
  res.end(req.method === 'HEAD' ? undefined : text);
}

/**
 * The reply as JSON, written straight to the response: the body is always a fresh object, so there is
 * nothing to negotiate (no ETag: answers are computed per caller, and no client of the API revalidates).
 */
export function sendJson(req: IncomingMessage, res: ServerResponse, status: number, body: unknown): void {
  // Large immutable values of the answer (a page's stored Document) are written once (json-text.ts).
  sendText(req, res, status, 'application/json', jsonText(body));
}

/** A 302 to `location` (escaped as a URL, as Express did), with a one-line text body for clients that show it. */
export function redirect(req: IncomingMessage, res: ServerResponse, location: string, status = 302): void {
  const address = encodeUrl(location);
  res.setHeader('Location', address);
  sendText(req, res, status, 'text/plain', `${status === 302 ? 'Found' : 'Moved'}. Redirecting to ${address}`);
}

// Whether the client reached the server over TLS: the connection's, or as a trusted proxy says (TRUST_PROXY).
export { isSecure } from './proxy-trust.js';
