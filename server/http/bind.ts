// Binds the generated route table to the handlers: validation in, typed replies out. Handlers never see
// `req` or `res`.
import express, { type Request, type Response, type Router } from 'express';
import { contractOperations } from '../../contract/index.js';
import { DEFAULT_MAX_BODY_BYTES, type Operation } from '../../contract/operation.js';
import { routes, type Handlers, type OperationId } from '../../generated/router.js';
import { checkAccess, type Grants } from '../auth/access.js';
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
    const parseBody = op.body ? [express.json({ limit: op.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES })] : [];
    routerFor(segment)[route.method](`/${rest.join('/')}`, ...parseBody, async (req, res) => {
      res.locals.operationId = route.operationId;
      const input = readInput(op, req);
      const ctx = contextOf(req, res);
      const decision = await checkAccess(ctx, op.access, input.params);
      if ('noContent' in decision) {
        res.status(204).end();
        return;
      }
      const reply = await handler({ ...input, grant: decision.grant }, ctx);
      res.status(reply.status);
      for (const [name, value] of Object.entries(reply.headers ?? {})) res.setHeader(name, value);
      if (reply.body === undefined) res.end();
      else res.json(reply.body);
    });
  }
  return router;
}
