// What every request served without Express goes through (the operations under /v1, the pages of
// published sites): measured, CORS answered (a preflight ends there), logged; then its work, whose error,
// if any, is answered as the API's error body. The same steps, in the same order, as the Express stack
// gives the other paths (server/app.ts).
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from 'pino';
import type { Metrics } from '../operating/metrics.js';
import { errorReply } from './errors.js';
import { measureRequest } from './metrics.js';
import { sendJson } from './node-http.js';
import { logRequest } from './request-log.js';

export type Middleware = (req: IncomingMessage, res: ServerResponse, next: (err?: unknown) => void) => void;

export interface ExchangeOptions {
  logger: Logger;
  metrics?: Metrics;
  /** The CORS middleware the Express stack uses too. */
  cors: Middleware;
}

function answerError(logger: Logger, req: IncomingMessage, res: ServerResponse, requestId: string, err: unknown): void {
  const reply = errorReply(logger, err, requestId);
  if (res.headersSent) {
    res.destroy(); // an answer already under way cannot become an error: the client sees it cut short
    return;
  }
  for (const [name, value] of Object.entries(reply.headers ?? {})) res.setHeader(name, value);
  sendJson(req, res, reply.status, reply.body);
}

/** Runs `work` (given the request's id) as described above; `operationIdOf` names the operation once known. */
export function runExchange(options: ExchangeOptions, req: IncomingMessage, res: ServerResponse, operationIdOf: () => string | undefined, work: (requestId: string) => Promise<void>): void {
  if (options.metrics) measureRequest(options.metrics, req, res, operationIdOf);
  options.cors(req, res, () => {
    // The path from the root: a host app that mounted the API keeps it as `originalUrl` (Express, Connect).
    const requestId = logRequest(options.logger, req, res, (req as { originalUrl?: string }).originalUrl ?? req.url!, operationIdOf);
    work(requestId).catch((err: unknown) => answerError(options.logger, req, res, requestId, err));
  });
}
