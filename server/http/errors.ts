// Renders the errors of the ground floor (server/errors.ts), the body parser's and the database's as the
// API's one error body.
import type { ErrorRequestHandler } from 'express';
import type { Logger } from 'pino';
import { isDatabaseUnavailable, loggableError } from '../db/client.js';
import { ApiError } from '../errors.js';

/** `{ error: { code, message } }`, the one error body of the API. */
export function errorBody(status: number, message: string) {
  return { error: { code: status, message } };
}

// Errors raised by Express's own body parser, recognized by their `type`.
const parserErrors: Record<string, { status: ApiError['status']; message: string }> = {
  'entity.too.large': { status: 413, message: 'Request body is larger than this operation accepts' },
  'entity.parse.failed': { status: 400, message: 'Request body is not valid JSON' },
  'encoding.unsupported': { status: 415, message: 'Unsupported request body encoding' },
  // Labelled by http/operations.ts: a body that is not what its Content-Encoding says, or not UTF-8.
  'encoding.failed': { status: 400, message: 'Request body cannot be decoded as its Content-Encoding says (gzip, deflate or br)' },
  'encoding.invalid-utf8': { status: 400, message: 'Request body is not valid UTF-8' },
  'charset.unsupported': { status: 415, message: 'Unsupported request body charset' },
};

/** Seconds a client is told to wait (`Retry-After`) when the database is unreachable. */
export const RETRY_AFTER_SECONDS = 5;

export interface ErrorReply {
  status: number;
  body: ReturnType<typeof errorBody>;
  headers?: Record<string, string>;
}

/**
 * Every error as the error body; anything unexpected becomes a 500 that leaks nothing (and is logged). A
 * database that cannot be reached (down, restarting, failing over, out of connections) is a 503 with
 * `Retry-After`: the request did not happen and may be sent again; the next request uses a fresh connection.
 */
export function errorReply(logger: Logger, err: unknown, reqId: string | undefined): ErrorReply {
  if (isDatabaseUnavailable(err)) {
    // The message only: a driver error carries no credentials, but its whole object is noise in a storm.
    logger.warn({ reqId, reason: (err as Error).message }, 'database unavailable');
    return { status: 503, body: errorBody(503, 'The database is unavailable; retry shortly'), headers: { 'Retry-After': String(RETRY_AFTER_SECONDS) } };
  }
  const type = (err as { type?: unknown } | undefined)?.type;
  const parserError = typeof type === 'string' ? parserErrors[type] : undefined;
  const known = err instanceof ApiError ? { status: err.status, message: err.message } : parserError;
  if (!known) logger.error({ err: loggableError(err), reqId }, 'unexpected error');
  const { status, message } = known ?? { status: 500, message: 'An unexpected error occurred' };
  // A 503 (the file store unreachable) says when to come back, as the database's does; an error may carry its own headers (a 429's Retry-After).
  const headers = err instanceof ApiError && err.headers ? err.headers : status === 503 ? { 'Retry-After': String(RETRY_AFTER_SECONDS) } : undefined;
  return { status, body: errorBody(status, message), ...(headers && { headers }) };
}

/** The Express error middleware of the routes outside /v1 (server/http/operations.ts answers its own). */
export function errorMiddleware(logger: Logger): ErrorRequestHandler {
  return (err, req, res, _next) => {
    const reply = errorReply(logger, err, req.id);
    for (const [name, value] of Object.entries(reply.headers ?? {})) res.setHeader(name, value);
    res.status(reply.status).json(reply.body);
  };
}
