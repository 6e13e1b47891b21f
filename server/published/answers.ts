// Answers of the published sites written on Node's own response, as Express's `res.send` and
// `res.redirect` wrote them (the sites are served without Express on their hot path, see published.routes.ts).
import type { IncomingMessage, ServerResponse } from 'node:http';
import encodeUrl from 'encodeurl';

/** `text` with its type (charset utf-8) and length; HEAD gets the headers only. */
export function sendText(req: IncomingMessage, res: ServerResponse, status: number, type: string, text: string): void {
  res.statusCode = status;
  res.setHeader('Content-Type', `${type}; charset=utf-8`);
  res.setHeader('Content-Length', Buffer.byteLength(text));
  res.end(req.method === 'HEAD' ? undefined : text);
}

/** A 302 to `location` (escaped as a URL, as Express did), with a one-line text body for clients that show it. */
export function redirect(req: IncomingMessage, res: ServerResponse, location: string): void {
  const address = encodeUrl(location);
  res.setHeader('Location', address);
  sendText(req, res, 302, 'text/plain', `Found. Redirecting to ${address}`);
}

/** Whether the connection is TLS (Express's `req.secure` without `trust proxy`, which this server does not set). */
export function isSecure(req: IncomingMessage): boolean {
  return (req.socket as { encrypted?: boolean }).encrypted === true;
}
