// createApi(options): the API itself, served relative to wherever it is mounted: every operation of the
// contract (server/http/operations.ts, on Node's own request and response), the paths beside them (file
// downloads, change-request PDFs, integration assets, the published document, on Express routes), and the
// routes browsers, identity providers and integrations reach without a token (SAML sign-in, invitation join
// links, integration public endpoints). One pipeline with two ways in: `handler`, Connect-style, for a host
// app (`app.use('/api/v1', handler)`: its base is the host's mount path, and everything above is served
// under it; what is not the API's goes to the host's `next`), and `serve`, the standalone server's fast
// path (server/app.ts, base `/v1`, the routes beside the API at its root). Where it is served is the one
// thing that decides the URLs the API hands out (`urlsFor`, `standaloneUrls`). Published sites are served by
// `sitesHandler`, at PUBLISHED_URL's path.
import { attachedReads } from './attached-reads.js';
import type { IncomingMessage, ServerResponse } from 'node:http';
import express, { type Express, type Router } from 'express';
import type { Logger } from 'pino';
import { createAuthenticator } from './auth/authenticate.js';
import { downloadOperations } from '../contract/index.js';
import { changeRequestPdfRoute } from './change-requests/pdf.route.js';
import { fileDownloadRoute } from './content/file-download.route.js';
import { createCtx, type Caller, type Ctx } from './context.js';
import type { Db } from './db/client.js';
import type { AppHandlers } from './handler-types.js';
import { handlers as realHandlers } from './handlers.js';
import { errorBody, errorMiddleware } from './http/errors.js';
import type { Middleware } from './http/exchange.js';
import { measureRequests } from './http/metrics.js';
import { readCacheOf } from './http/read-cache.js';
import { serveOperations, type ServeOperations } from './http/operations.js';
import { authenticateRequests } from './http/rate-limit.js';
import { compileTrust, trustProxies, type TrustProxySetting } from './http/proxy-trust.js';
import { publishedDocument } from './http/reference-docs.js';
import type { RequestTracer } from './http/request-trace.js';
import { requestLog } from './http/request-log.js';
import { integrationAssetsRoute } from './integrations/assets.route.js';
import type { Metrics } from './operating/metrics.js';
import type { RateLimiter } from './operating/rate-limit.js';
import { createUrls, type UrlBases, type Urls } from './urls.js';
import { publicEndpointRoutes } from './integrations/public-endpoint.route.js';
import { joinLinkRoutes } from './invites/invite.routes.js';
import { customHostnameSites, publishedSitesRouter } from './published/published.routes.js';
import type { SamlSigning } from './sso/saml-settings.js';
import { samlRoutes } from './sso/saml.routes.js';
import { subscribePlatformAreas } from './subscribers.js';

export interface ApiOptions {
  db: Db;
  logger: Logger;
  /** Origin (and any path prefix) of the absolute URLs in responses, e.g. `https://api.example.com`. */
  publicUrl: string;
  /** Where the web app and the published sites live (see createUrls). */
  bases?: Omit<UrlBases, 'apiPath'>;
  now?: () => Date;
  handlers?: AppHandlers;
  rateLimiter?: RateLimiter;
  metrics?: Metrics;
  /** The CORS middleware of the server around the API (the same headers on every answer). */
  cors: Middleware;
  onStatements?: (operationId: string, statements: number) => void;
  /** The base when the host does not tell it: Connect sets no `req.baseUrl` (Express does, and it wins). */
  mountPath?: string;
  /** Which proxies may say who the client is (TRUST_PROXY, server/http/proxy-trust.ts), for requests coming through `handler`. */
  trustProxy?: TrustProxySetting;
  /** Given every request of the API, inside which it runs (traces, server/telemetry/); absent: none. */
  tracer?: RequestTracer;
  /** The key and certificate SAML AuthnRequests are signed with; absent: not signed. */
  samlSigning?: SamlSigning;
  /** Told the URLs of each mount `handler` serves for the first time (createDocsApi: what scripts and jobs are told). */
  onMount?: (urls: Urls) => void;
  /**
   * Whether the answers of the most frequent reads are held while the database's writes are heard
   * (server/http/read-cache.ts); default true. Never with `handlers` of one's own, whose answers may not
   * come from the database alone.
   */
  cacheReads?: boolean;
}

type ConnectHandler = (req: IncomingMessage, res: ServerResponse, next: (err?: unknown) => void) => void;

export interface Api {
  /**
   * Connect-style middleware: serves the API relative to the host's mount path (`req.baseUrl`), with the
   * routes beside it (SAML sign-in, join links, integration public endpoints) under the same mount;
   * `next()` for the rest.
   */
  handler: ConnectHandler;
  /** The operations, for a caller that knows the URLs and the URL under the base (the standalone server's /v1). */
  serve: ServeOperations;
  /** The API's routes beside the operations, relative to its base, for an Express app to mount (server/app.ts). */
  routes: Router;
  /** The routes beside the API for browsers, identity providers and integrations, relative to `urls.root` (one Router per Urls, kept). */
  besideRoutes(urls: Urls): Router;
  /** The published sites, relative to where they are mounted (PUBLISHED_URL's path), with the links of `urls`. */
  sitesHandler(urls: () => Urls): ConnectHandler;
  /** The URLs of the standalone server: the API under `/v1`, the routes beside it at the root. */
  standaloneUrls: Urls;
  /** The URLs of the API mounted at `base`, the routes beside it under the same base (one object per base, kept: file links cache their key on it). */
  urlsFor(base: string): Urls;
}

type DownloadId = keyof typeof downloadOperations;

/**
 * No link this server makes holds U+0000, which PostgreSQL refuses in text: such a URL is not found, naming
 * the part that holds it, before any lookup (the operations refuse it with a 400 the same way).
 */
const noNul: express.RequestHandler = (req, res, next) => {
  const parts: [string, unknown][] = [...Object.entries(req.params), ...Object.entries(req.query)];
  const found = parts.find(([, value]) => (Array.isArray(value) ? value : [value]).some((v) => typeof v === 'string' && v.includes('\u0000')));
  if (!found) return next();
  res.status(404).json(errorBody(404, `Nothing at this address: ${found[0]} must not contain the NUL character (U+0000)`));
};

/** The Express path of a path of the contract (`/files/{spaceId}` -> `/files/:spaceId`). */
const expressPath = (path: string) => path.replace(/\{(\w+)\}/g, ':$1');

/**
 * The Express routes the API serves beside its operations, at the paths the contract gives them
 * (contract/downloads.ts): links that carry their own permission, and its document. With a tracer, each
 * request of theirs runs in its span, as an operation's does.
 */
function apiRoutes(db: Db, now: () => Date, tracer?: RequestTracer): Router {
  const router = express.Router();
  if (tracer) {
    for (const [operationId, op] of Object.entries(downloadOperations)) {
      const route = { operationId, template: op.path };
      router.get(expressPath(op.path), (req, res, next) => tracer.serve(req, res, route, () => next()));
    }
  }
  const path = (id: DownloadId) => expressPath(downloadOperations[id].path);
  // Integration images are loaded by browsers without a token; the two links carry their own token or signature.
  router.get(path('getIntegrationAsset'), noNul, integrationAssetsRoute(db));
  router.get(path('downloadChangeRequestPDF'), noNul, changeRequestPdfRoute(db, now));
  router.get(path('downloadFile'), noNul, fileDownloadRoute(db, now));
  router.use(publishedDocument()); // getOpenAPIDocument, getOpenAPIDocumentYaml
  return router;
}

/** Makes an Express app with the server's settings (no x-powered-by, no ETags, the proxies trusted). */
function expressApp(trustProxy: TrustProxySetting | undefined): Express {
  const app: Express = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.set('trust proxy', compileTrust(trustProxy));
  return app;
}

/** Runs an Express app for a host's request, putting the host's prototypes back on the way out (as Express does for a mounted sub-app). */
function asHosted(app: Express): ConnectHandler {
  return (req, res, next) => {
    const requestPrototype = Object.getPrototypeOf(req) as object;
    const responsePrototype = Object.getPrototypeOf(res) as object;
    app(req as express.Request, res as express.Response, (err?: unknown) => {
      Object.setPrototypeOf(req, requestPrototype);
      Object.setPrototypeOf(res, responsePrototype);
      next(err);
    });
  };
}

/** First segments of the routes beside the API (SAML sign-in and join links under /auth, integration endpoints under /integrations). */
const BESIDE_PREFIXES = ['/auth', '/integrations'];

/**
 * The Express app a host's request goes through when it is not an operation: measured, CORS, logged, then
 * the routes (the API's, then those beside it, with the URLs of the mount); what they do not serve goes
 * back to the host.
 */
function hostedRoutes(options: ApiOptions, routes: Router, beside: Router): ConnectHandler {
  const app = expressApp(options.trustProxy);
  const paths = [...Object.values(downloadOperations).map((op) => expressPath(op.path)), ...BESIDE_PREFIXES];
  if (options.metrics) app.use(paths, measureRequests(options.metrics));
  app.use(paths, options.cors as express.RequestHandler, requestLog(options.logger));
  app.use(routes);
  app.use(beside);
  app.use(errorMiddleware(options.logger));
  return asHosted(app);
}

export function createApi(options: ApiOptions): Api {
  const { db, logger, publicUrl, now = () => new Date() } = options;
  subscribePlatformAreas(); // what the core areas' writes cause in integrations and permissions
  const urlsByBase = new Map<string, Urls>();
  const urlsFor = (base: string): Urls => {
    let urls = urlsByBase.get(base);
    if (!urls) {
      urls = createUrls(publicUrl, { ...options.bases, apiPath: base, rootPath: base });
      urlsByBase.set(base, urls);
    }
    return urls;
  };
  const standaloneUrls = createUrls(publicUrl, { ...options.bases, apiPath: '/v1', rootPath: '' });
  const serve = serveOperations({
    handlers: options.handlers ?? realHandlers,
    authenticate: authenticateRequests(createAuthenticator(db), options.rateLimiter, () => options.metrics?.rateLimitRefusals.inc()),
    contextOf: (caller: Caller, requestId: string, urls: Urls): Ctx => createCtx({ caller, db, now, urls, log: logger, requestId }),
    logger,
    metrics: options.metrics,
    cors: options.cors,
    onStatements: options.onStatements,
    tracer: options.tracer,
    attachedReads,
    readCache: options.handlers || options.cacheReads === false ? undefined : readCacheOf(db),
  });
  const routes = apiRoutes(db, now, options.tracer);
  const besideByUrls = new Map<Urls, Router>();
  const besideRoutes = (urls: Urls): Router => {
    let router = besideByUrls.get(urls);
    if (!router) {
      router = express.Router();
      // Integration public endpoints: the integration's own HTTP surface, no token (its script decides).
      router.use(publicEndpointRoutes(db, publicUrl));
      router.use(samlRoutes({ db, now, urls, log: logger, signing: options.samlSigning })); // SAML sign-in: browsers and identity providers, no bearer token
      router.use(joinLinkRoutes({ db, now, log: logger, urls })); // the one-time join links of invitations by email, opened before the person holds a token
      besideByUrls.set(urls, router);
    }
    return router;
  };
  const hostedByBase = new Map<string, ConnectHandler>();
  const hostedAt = (base: string): ConnectHandler => {
    let hosted = hostedByBase.get(base);
    if (!hosted) {
      const urls = urlsFor(base);
      hosted = hostedRoutes(options, routes, besideRoutes(urls));
      hostedByBase.set(base, hosted);
      options.onMount?.(urls);
    }
    return hosted;
  };
  const trust = compileTrust(options.trustProxy);
  return {
    handler: (req, res, next) => {
      trustProxies(req, trust);
      // Express and Connect strip the mount path from `req.url`; Express keeps it as `req.baseUrl`.
      const base = ((req as { baseUrl?: string }).baseUrl ?? options.mountPath ?? '').replace(/\/$/, '');
      const hosted = hostedAt(base);
      serve(req, res, () => hosted(req, res, next), urlsFor(base), req.url ?? '/');
    },
    serve,
    routes,
    besideRoutes,
    sitesHandler(urlsOf) {
      const app = expressApp(options.trustProxy);
      let sites: { urls: Urls; custom: express.RequestHandler; router: express.RequestHandler } | undefined;
      const current = () => {
        const urls = urlsOf();
        if (sites?.urls !== urls) {
          const published = { db, urls, log: logger };
          const ownHosts = [new URL(publicUrl).hostname, new URL(urls.published('')).hostname];
          sites = { urls, custom: customHostnameSites(published, ownHosts), router: publishedSitesRouter(published) };
        }
        return sites;
      };
      if (options.metrics) app.use(measureRequests(options.metrics));
      app.use(options.cors as express.RequestHandler, requestLog(logger));
      app.use((req, res, next) => current().custom(req, res, next)); // a request for a site's custom hostname
      app.use((req, res, next) => current().router(req, res, next)); // published docs sites, to anyone they are visible to
      app.use(errorMiddleware(logger));
      return asHosted(app);
    },
    standaloneUrls,
    urlsFor,
  };
}
