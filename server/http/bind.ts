// Binds the generated route table to the handlers: validation in, typed replies out. Handlers never see
// `req` or `res`.
import { isUtf8 } from 'node:buffer';
import express, { type Request, type RequestHandler, type Response, type Router } from 'express';
import { contractOperations } from '../../contract/index.js';
import { DEFAULT_MAX_BODY_BYTES, type Operation } from '../../contract/operation.js';
import { Space } from '../../contract/spaces.js';
import { routes, type Handlers, type OperationId } from '../../generated/router.js';
import { checkAccess, type Grants } from '../auth/access.js';
import { checkInstallationAccess } from '../auth/installation-caller.js';
import type { Ctx } from '../context.js';
import { ApiError, BadRequest } from '../errors.js';
import { validatePart } from './validation.js';

type AnyHandler = (input: unknown, ctx: Ctx) => Promise<{ status: number; body?: unknown; headers?: Record<string, string> }>;

function hasBody(req: Request): boolean {
  return Number(req.headers['content-length'] ?? 0) > 0 || req.headers['transfer-encoding'] !== undefined;
}

function readBody(op: Operation, req: Request): unknown {
  if (!op.body) return undefined;
  if (hasBody(req) && !req.is('application/json')) throw new ApiError(415, 'Request body must be application/json');
  if (req.body === undefined) {
    if (op.bodyOptional) return validatePart('body', op.body, {});
    throw new BadRequest('Invalid request: body: a JSON body is required');
  }
  return validatePart('body', op.body, req.body);
}

function readInput(op: Operation, req: Request) {
  return {
    params: (op.params ? validatePart('params', op.params, req.params) : {}) as Record<string, string>,
    query: op.query ? validatePart('query', op.query, req.query) : {},
    body: readBody(op, req),
  };
}

/** Refuses a body whose bytes (after Content-Encoding) are not UTF-8, which JSON must be, instead of reading U+FFFD into it. */
function utf8Only(_req: Request, _res: Response, bytes: Buffer) {
  if (!isUtf8(bytes)) throw Object.assign(new Error('Request body is not valid UTF-8'), { status: 400, type: 'encoding.invalid-utf8' });
}

/**
 * Express's JSON parser with a size limit and the UTF-8 check. A body that fails to decompress (says
 * `Content-Encoding: gzip` and is not) comes out of it as an untyped 400: it is labelled here, so the
 * error middleware answers 400 instead of taking it for an unexpected error.
 */
function jsonBody(limit: number): RequestHandler {
  const parse = express.json({ limit, verify: utf8Only });
  return (req, res, next) =>
    parse(req, res, (err?: unknown) => {
      const e = err as { type?: string; status?: number } | undefined;
      next(e && e.type === undefined && e.status === 400 ? Object.assign(e, { type: 'encoding.failed' }) : err);
    });
}

/**
 * The reply as JSON, written straight to the response: Express's `res.json` then `res.send` would check
 * the body's type again, consider an ETag (off) and freshness, and convert the text to a Buffer, for an
 * answer that is always a fresh JSON object (measured on the hot path: bench/results/http.md).
 */
function sendJson(res: Response, body: unknown) {
  const text = JSON.stringify(body);
  res.setHeader('Content-Type', 'application/json; charset=utf-8');
  res.setHeader('Content-Length', Buffer.byteLength(text));
  res.end(res.req.method === 'HEAD' ? undefined : text);
}

/**
 * An Express router serving every operation of the route table: input validated (400), then the
 * operation's access rule applied (404/403, or 204 for an idempotent delete of nothing), then the handler.
 */
export function bindRoutes(handlers: Handlers<Ctx, Grants>, contextOf: (req: Request, res: Response) => Ctx): Router {
  // One sub-router per first path segment (`/spaces`, `/orgs`, …): Express tries routes one by one, so a
  // request is matched against the routes of its segment only, not all of them (profiled on the hot path).
  const router = express.Router();
  const segments = new Map<string, Router>();
  const routerFor = (segment: string) => {
    let sub = segments.get(segment);
    if (!sub) {
      sub = express.Router();
      segments.set(segment, sub);
      router.use(`/${segment}`, sub);
    }
    return sub;
  };
  for (const route of routes) {
    const [, segment, ...rest] = route.path.split('/');
    const op: Operation = contractOperations[route.operationId as OperationId];
    const handler = handlers[route.operationId].bind(handlers) as AnyHandler;
    // Each operation that takes a body parses it, with its own size limit, after authentication.
    const parseBody = op.body ? [jsonBody(op.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES)] : [];
    // Only an operation answering a Space reads the space's counters with its grant.
    const accessOptions = { spaceCounters: Object.values(op.responses).some((response) => response?.schema === Space) };
    routerFor(segment)[route.method](`/${rest.join('/')}`, ...parseBody, async (req, res) => {
      res.locals.operationId = route.operationId;
      const input = readInput(op, req);
      const ctx = contextOf(req, res);
      const installation = ctx.caller.installation;
      const decision = installation
        ? await checkInstallationAccess(ctx, installation, route.operationId, op.access, input.params, accessOptions)
        : await checkAccess(ctx, op.access, input.params, accessOptions);
      if ('noContent' in decision) {
        res.status(204).end();
        return;
      }
      const reply = await handler({ ...input, grant: decision.grant }, ctx);
      res.status(reply.status);
      for (const [name, value] of Object.entries(reply.headers ?? {})) res.setHeader(name, value);
      if (reply.body === undefined) res.end();
      else sendJson(res, reply.body);
    });
  }
  return router;
}
