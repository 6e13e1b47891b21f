// The request log: one line per request with its id, method, path, operation, status and duration.
// Only those fields are written — no headers (so no token or cookie), no query string (a `shareKey` is a
// secret). A few lines of our own rather than pino-http: profiled on the hot path, pino-http's per-request
// child logger, serializers and listeners cost about a tenth of a GET; this costs one object per request.
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { RequestHandler } from 'express';
import type { Logger } from 'pino';

declare module 'express-serve-static-core' {
  interface Request {
    /** The request's id, in its log line and in the log lines of errors it caused. */
    id: string;
  }
}

/**
 * Logs the request once it is answered (or abandoned), at `info`, or `error` for 5xx, and returns its id
 * (the client's `X-Request-Id` if it sent one, else a new one), which the response carries. `path` is the
 * request's path from the root; `operationIdOf` tells, once answered, which operation answered it.
 */
export function logRequest(logger: Logger, req: IncomingMessage, res: ServerResponse, path: string, operationIdOf: () => string | undefined): string {
  const started = performance.now();
  const id = (req.headers['x-request-id'] as string | undefined)?.slice(0, 64) || randomUUID();
  res.setHeader('X-Request-Id', id);
  // 'close' comes once the response is sent, or the connection is gone first (then it is not finished).
  res.once('close', () => {
    const line = {
      reqId: id,
      method: req.method,
      path: path.split('?', 1)[0],
      operationId: operationIdOf(),
      status: res.statusCode,
      ms: Math.round((performance.now() - started) * 10) / 10,
      ...(!res.writableFinished && { aborted: true }),
    };
    if (res.statusCode >= 500) logger.error(line, 'request failed');
    else logger.info(line, 'request');
  });
  return id;
}

/** `logRequest` as Express middleware (the routes outside /v1), putting the id in `req.id`. */
export function requestLog(logger: Logger): RequestHandler {
  return (req, res, next) => {
    req.id = logRequest(logger, req, res, req.originalUrl, () => undefined);
    next();
  };
}
