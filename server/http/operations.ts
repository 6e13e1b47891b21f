// Serves /v1: every operation of the route table on Node's own request and response. Express serves the
// rest of the server (sign-in, docs, files); here its request handling cost about as much as the whole of
// a GET's own work (measured: bench/results/http.md). In order, as the Express stack did: the request is
// measured, CORS answered and logged (exchange.ts), the caller authenticated and rate-limited, the method
// checked (405), the body parsed (415, 413, 400), the input validated (400), the operation's access rule
// applied (404/403, or 204 for an idempotent delete of nothing), then the handler. Handlers never see the
// request or the response; any error becomes the API's error body.
import { isUtf8 } from 'node:buffer';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { parse as parseQuery } from 'node:querystring';
import express, { type Request, type Response } from 'express';
import typeis from 'type-is';
import { contractOperations } from '../../contract/index.js';
import { DEFAULT_MAX_BODY_BYTES, type Operation } from '../../contract/operation.js';
import { Space } from '../../contract/spaces.js';
import type { Handlers, OperationId } from '../../generated/router.js';
import { checkAccess, type Grants } from '../auth/access.js';
import type { AttachedReadOf } from '../auth/attached-read.js';
import { checkInstallationAccess } from '../auth/installation-caller.js';
import { checkIntegrationTokenAccess } from '../auth/integration-caller.js';
import { checkSiteTokenAccess } from '../auth/site-token-caller.js';
import type { Caller, Ctx } from '../context.js';
import type { Urls } from '../urls.js';
import { countingStatements, uncounted } from '../db/query-count.js';
import { servedChangesOf } from '../db/served-changes.js';
import { ApiError, BadRequest } from '../errors.js';
import { runExchange, type ExchangeOptions, type Middleware } from './exchange.js';
import { jsonText } from './json-text.js';
import { pathAndQuery, sendJson, sendText } from './node-http.js';
import { CACHED_READS, ReadCache, type HeldAnswer } from './read-cache.js';
import type { RequestTracer, TracedRoute } from './request-trace.js';
import { compileRouteTable, decodeParams, type RouteLookup } from './route-table.js';
import { validatePart } from './validation.js';

type AnyHandler = (input: unknown, ctx: Ctx) => Promise<{ status: number; body?: unknown; headers?: Record<string, string> }>;

export interface OperationsOptions extends ExchangeOptions {
  handlers: Handlers<Ctx, Grants>;
  /** The caller of a request, or a thrown 401/429 (server/http/rate-limit.ts). */
  authenticate: (req: IncomingMessage, res: ServerResponse) => Promise<Caller>;
  /** The context of a request; `urls` are those of where it was served (the standalone server's, or a host's mount). */
  contextOf: (caller: Caller, requestId: string, urls: Urls) => Ctx;
  /** Told, once answered, how many SQL statements the request sent after authentication (the query-budget test). */
  onStatements?: (operationId: string, statements: number) => void;
  /** Given every request served here, inside which it runs (traces, server/telemetry/); absent: none. */
  tracer?: RequestTracer;
  /** What an operation reads in its grant's statement besides (server/auth/attached-read.ts), by operation. */
  attachedReads?: Partial<Record<OperationId, AttachedReadOf>>;
  /** Where the answers of CACHED_READS are held (read-cache.ts); absent: every read is made anew. */
  readCache?: ReadCache;
}

/** What a request has learnt on its way: its route, its id (for the log and errors) and, once its method is served, its operation. */
interface Exchange {
  found: NonNullable<RouteLookup>;
  /** The path under the API's base, and the query string. */
  path: string;
  query: string;
  /** The URLs of where the API is served: the standalone server's (`/v1`), or those of the mount in a host app. */
  urls: Urls;
  id: string;
  operationId?: OperationId;
}

/** One operation of the table, ready to serve: its contract, handler, body parser and access options. */
interface BoundOperation {
  op: Operation;
  handler: AnyHandler;
  parseBody?: Middleware;
  /** Only an operation answering a Space reads the space's counters with its grant. */
  accessOptions: { spaceCounters: boolean };
  /** What it reads with its grant, from the request's parameters (absent: the grant only). */
  attachOf?: AttachedReadOf;
  /** Its id and path template, as a trace names it. */
  route: TracedRoute;
}

/** Refuses a body whose bytes (after Content-Encoding) are not UTF-8, which JSON must be, instead of reading U+FFFD into it. */
function utf8Only(_req: Request, _res: Response, bytes: Buffer) {
  if (!isUtf8(bytes)) throw Object.assign(new Error('Request body is not valid UTF-8'), { status: 400, type: 'encoding.invalid-utf8' });
}

/**
 * Express's JSON parser (body-parser, which works on Node's own request) with a size limit and the UTF-8
 * check. A body that fails to decompress (says `Content-Encoding: gzip` and is not) comes out of it as an
 * untyped 400: it is labelled here, so that it is answered 400 instead of taken for an unexpected error.
 */
function jsonBody(limit: number): Middleware {
  const parse = express.json({ limit, verify: utf8Only }) as unknown as Middleware;
  return (req, res, next) => {
    // A host app's body parser ran before the mounted API (the body is read; body-parser 1 also marks
    // `_body`): the bytes are gone, but the operation's own limit still holds, on the declared length or,
    // when chunked, the parsed body's size.
    if (req.readableEnded || (req as { _body?: boolean })._body === true) {
      const declared = Number(req.headers['content-length'] ?? NaN);
      const size = Number.isFinite(declared) ? declared : Buffer.byteLength(JSON.stringify((req as { body?: unknown }).body) ?? '');
      return next(size > limit ? Object.assign(new Error('request entity too large'), { status: 413, type: 'entity.too.large' }) : undefined);
    }
    parse(req, res, (err?: unknown) => {
      const e = err as { type?: string; status?: number } | undefined;
      next(e && e.type === undefined && e.status === 400 ? Object.assign(e, { type: 'encoding.failed' }) : err);
    });
  };
}

function runMiddleware(middleware: Middleware, req: IncomingMessage, res: ServerResponse): Promise<void> {
  return new Promise((resolve, reject) => middleware(req, res, (err) => (err ? reject(err) : resolve())));
}

function hasBody(req: IncomingMessage): boolean {
  return Number(req.headers['content-length'] ?? 0) > 0 || req.headers['transfer-encoding'] !== undefined;
}

/** The body, once parsed: validated, or 415 when it is not JSON, or 400 when required and absent. */
function readBody(op: Operation, req: IncomingMessage): unknown {
  if (!op.body) return undefined;
  if (hasBody(req) && !typeis(req, ['application/json'])) throw new ApiError(415, 'Request body must be application/json');
  const body = (req as IncomingMessage & { body?: unknown }).body;
  if (body === undefined) {
    if (op.bodyOptional) return validatePart('body', op.body, {});
    throw new BadRequest('Invalid request: body: a JSON body is required');
  }
  return validatePart('body', op.body, body);
}

/** Whether a request's URL is under /v1 (case-insensitive, as Express mounted it). */
export function isOperationPath(url: string): boolean {
  const next = url.charCodeAt(3); // NaN past the end
  return (url.length === 3 || next === 47 /* / */ || next === 63) /* ? */ && url.slice(0, 3).toLowerCase() === '/v1';
}

/**
 * Serves one request whose URL under the API's base is `url` (path and query): the operations of the
 * route table; any other path (the API's Express routes: files, PDFs, integration assets, the published
 * document; and unknown paths) goes to `next`.
 */
export type ServeOperations = (req: IncomingMessage, res: ServerResponse, next: () => void, urls: Urls, url: string) => void;

export function serveOperations(options: OperationsOptions): ServeOperations {
  const { handlers, onStatements, tracer } = options;
  const lookup = compileRouteTable();
  const bound = new Map<OperationId, BoundOperation>();
  for (const operationId of Object.keys(contractOperations) as OperationId[]) {
    const op: Operation = contractOperations[operationId];
    bound.set(operationId, {
      op,
      handler: handlers[operationId].bind(handlers) as AnyHandler,
      // Each operation that takes a body parses it, with its own size limit, after authentication.
      parseBody: op.body ? jsonBody(op.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES) : undefined,
      accessOptions: { spaceCounters: Object.values(op.responses).some((response) => response?.schema === Space) },
      attachOf: options.attachedReads?.[operationId],
      route: { operationId, template: op.path },
    });
  }

  /** Writes `answer` (a JSON answer, or one held) as sendJson would. */
  function send(req: IncomingMessage, res: ServerResponse, answer: HeldAnswer): void {
    for (const [name, value] of answer.headers) res.setHeader(name, value);
    sendText(req, res, answer.status, answer.type, answer.text);
  }

  /** Where a 200 of `exchange`'s read is held, when it is one of CACHED_READS asked with a user's own token. */
  function heldKey(req: IncomingMessage, exchange: Exchange, caller: Caller): string | undefined {
    const { found } = exchange;
    if (!options.readCache || (req.method !== 'GET' && req.method !== 'HEAD') || !('operationId' in found) || !CACHED_READS.has(found.operationId)) return undefined;
    if (caller.installation || caller.integration || caller.site) return undefined;
    return ReadCache.keyOf(caller.userId, exchange.urls.api(''), exchange.query ? `${exchange.path}?${exchange.query}` : exchange.path);
  }

  async function dispatch(req: IncomingMessage, res: ServerResponse, exchange: Exchange, caller: Caller, hold?: (answer: HeldAnswer) => void): Promise<void> {
    const { found, path } = exchange;
    if ('allow' in found) {
      res.setHeader('Allow', found.allow);
      throw new ApiError(405, `${req.method} is not allowed on ${path}; allowed: ${found.allow}`);
    }
    exchange.operationId = found.operationId;
    const operation = bound.get(found.operationId)!;
    const { op } = operation;
    if (operation.parseBody) await runMiddleware(operation.parseBody, req, res); // 413 and malformed JSON first, as before
    const input = {
      params: (op.params ? validatePart('params', op.params, decodeParams(found.rawParams)) : {}) as Record<string, string>,
      query: op.query ? validatePart('query', op.query, parseQuery(exchange.query)) : {},
      body: readBody(op, req),
    };
    const ctx = options.contextOf(caller, exchange.id, exchange.urls);
    const { installation, site, integration } = ctx.caller;
    const accessOptions = operation.attachOf ? { ...operation.accessOptions, attach: operation.attachOf(input.params, ctx, input.query) } : operation.accessOptions;
    const decision = installation
      ? await checkInstallationAccess(ctx, installation, found.operationId, op.access, input.params, accessOptions)
      : integration
        ? checkIntegrationTokenAccess(integration, found.operationId, input.params, input.body)
        : site
        ? await checkSiteTokenAccess(ctx, site, found.operationId, op.access, input.params, accessOptions)
        : await checkAccess(ctx, op.access, input.params, accessOptions);
    if ('noContent' in decision) {
      res.statusCode = 204;
      res.end();
      return;
    }
    const reply = await operation.handler({ ...input, grant: decision.grant }, ctx);
    // A write that changed what published sites serve is answered once the page read most recently of each
    // site it changed is built again (server/published/page-prebuild.ts, which bounds the wait), so the next
    // reader finds it built. Outside the request's statement count: the builds are the readers' cost, not the write's.
    if (req.method !== 'GET' && req.method !== 'HEAD' && reply.status < 300) {
      const settling = uncounted(() => servedChangesOf(ctx.db)?.settled());
      if (settling) await settling;
    }
    if (hold && reply.status === 200 && reply.body !== undefined) {
      const answer: HeldAnswer = { status: 200, headers: Object.entries(reply.headers ?? {}), type: 'application/json', text: jsonText(reply.body) };
      hold(answer);
      return send(req, res, answer);
    }
    for (const [name, value] of Object.entries(reply.headers ?? {})) res.setHeader(name, value);
    if (reply.body === undefined) {
      res.statusCode = reply.status;
      res.end();
    } else sendJson(req, res, reply.status, reply.body);
  }

  /** Answers `exchange` with what is held for it, or reads it (and holds the answer when it may be). */
  async function answerWithCache(req: IncomingMessage, res: ServerResponse, exchange: Exchange, caller: Caller): Promise<void> {
    const cache = options.readCache;
    const key = heldKey(req, exchange, caller);
    if (!cache || key === undefined) return dispatch(req, res, exchange, caller);
    const held = await cache.get(key);
    if (held) {
      exchange.operationId = (exchange.found as { operationId: OperationId }).operationId;
      return send(req, res, held);
    }
    // Taken before the read's first statement: a write told after it, whenever it committed, keeps the answer out.
    const version = cache.version();
    return dispatch(req, res, exchange, caller, (answer) => cache.keep(key, answer, version));
  }

  async function answer(req: IncomingMessage, res: ServerResponse, exchange: Exchange): Promise<void> {
    const caller = await options.authenticate(req, res);
    if (!onStatements) return answerWithCache(req, res, exchange, caller);
    // Counted from here: authentication's statements (a token read, cached) are not the operation's.
    return countingStatements((tally) => {
      res.once('finish', () => {
        if (exchange.operationId) onStatements(exchange.operationId, tally.statements);
      });
      return answerWithCache(req, res, exchange, caller);
    });
  }

  return (req, res, next, urls, url) => {
    const { path: underBase, query } = pathAndQuery(url);
    const path = underBase || '/';
    const found = lookup(req.method!, path);
    if (!found) return next();
    const exchange: Exchange = { found, path, query, urls, id: '' };
    const run = () =>
      runExchange(
        options,
        req,
        res,
        () => exchange.operationId,
        (requestId) => {
          exchange.id = requestId;
          return answer(req, res, exchange);
        },
      );
    if (tracer) tracer.serve(req, res, 'operationId' in found ? bound.get(found.operationId)!.route : undefined, run);
    else run();
  };
}
