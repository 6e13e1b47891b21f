// The request log: one line per request with its id, method, path, operation, status and duration.
// Only those fields are written — no headers (so no token or cookie), no query string (a `shareKey` is a
// secret). A few lines of our own rather than pino-http: profiled on the hot path, pino-http's per-request
// child logger, serializers and listeners cost about a tenth of a GET; this costs one object per request.
import { randomUUID } from 'node:crypto';
import type { RequestHandler } from 'express';
import type { Logger } from 'pino';

declare module 'express-serve-static-core' {
  interface Request {
    /** The request's id, in its log line and in the log lines of errors it caused. */
    id: string;
  }
}

/** Logs every request once it is answered (or abandoned), at `info`, or `error` for 5xx. */
export function requestLog(logger: Logger): RequestHandler {
  return (req, res, next) => {
    const started = performance.now();
    req.id = (req.headers['x-request-id'] as string | undefined)?.slice(0, 64) || randomUUID();
    res.setHeader('X-Request-Id', req.id);
    // 'close' comes once the response is sent, or the connection is gone first (then it is not finished).
    res.once('close', () => {
      const line = {
        reqId: req.id,
        method: req.method,
        path: req.originalUrl.split('?', 1)[0],
        operationId: res.locals.operationId as string | undefined,
        status: res.statusCode,
        ms: Math.round((performance.now() - started) * 10) / 10,
        ...(!res.writableFinished && { aborted: true }),
      };
      if (res.statusCode >= 500) logger.error(line, 'request failed');
      else logger.info(line, 'request');
    });
    next();
  };
}
