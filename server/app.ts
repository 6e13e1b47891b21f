// createApp(config): the standalone server's request handler: the API under /v1 (server/api.ts, whose
// operations are served on Node's own request and response) and the pages of published sites asked by
// path, also without Express, and for every other path an Express app (health, metrics, custom hostnames,
// sign-in, docs, the API's own Express routes under /v1). No global state, so tests create as many apps
// as they like.
import { createServer, type IncomingMessage, type RequestListener, type Server } from 'node:http';
import cors from 'cors';
import express from 'express';
import type { Logger } from 'pino';
import type { Db } from './db/client.js';
import type { AppHandlers } from './handler-types.js';
import { errorBody, errorMiddleware } from './http/errors.js';
import { healthRoutes } from './http/health.js';
import { measureRequests, metricsRoute } from './http/metrics.js';
import { isOperationPath } from './http/operations.js';
import { compileTrust, requestHost, trustProxies, type TrustProxySetting } from './http/proxy-trust.js';
import { RATE_LIMIT_HEADERS } from './http/rate-limit.js';
import { createApi, type Api } from './api.js';
import type { Metrics } from './operating/metrics.js';
import type { RateLimiter } from './operating/rate-limit.js';
import { referenceDocs } from './http/reference-docs.js';
import { requestLog } from './http/request-log.js';
import { setScriptUrls } from './runtime/script-runtime.js';
import type { SamlSigning } from './sso/saml-settings.js';
import { webAppNotice } from './published/app-notice.js';
import { customHostnameSites, hostnameOf, mayBeCustomHostname, publishedSitesRouter, serveSitePath, sitePath, type SitePath } from './published/published.routes.js';
import { runExchange } from './http/exchange.js';
import { pathAndQuery } from './http/node-http.js';

export interface AppOptions {
  db: Db;
  logger: Logger;
  /** Base of the absolute URLs in responses, e.g. `https://api.example.com`. */
  publicUrl: string;
  /** Base of published docs sites (PUBLISHED_URL); default `<publicUrl>/sites`, served here (server/published/). */
  publishedUrl?: string;
  /** Where the web app lives (APP_URL), for `urls.app`; default `<publicUrl>/app`, where this server says what it is. */
  appUrl?: string;
  /** The clock; defaults to the real one. */
  now?: () => Date;
  /** The operation handlers; defaults to the real ones (the hybrid-mock test swaps one for its 501 stub). */
  handlers?: AppHandlers;
  /** Counts every /v1 request per token or address and refuses those over the limit (429); absent: no limit, no rate-limit headers. */
  rateLimiter?: RateLimiter;
  /** Measures every request and serves GET /metrics (with `metricsToken`, only to that bearer token); absent: no /metrics. */
  metrics?: Metrics;
  metricsToken?: string;
  /**
   * Told, for every request that reached an operation, how many SQL statements it sent after
   * authentication (the query-budget test); unset, nothing is counted.
   */
  onStatements?: (operationId: string, statements: number) => void;
  /** Whether the answers of the most frequent reads are held (createApi's `cacheReads`); default true. */
  cacheReads?: boolean;
  /** The key and certificate this service signs its SAML AuthnRequests with; absent: requests are not signed. */
  samlSigning?: SamlSigning;
  /** Which proxies may say who the client is (TRUST_PROXY, server/http/proxy-trust.ts); default none. */
  trustProxy?: TrustProxySetting;
  /** The API to serve under /v1, when the caller built it (createDocsApi shares one with its `handler`); default one built from these options. */
  api?: Api;
}

/** A request handler that can also listen, as an Express app can. */
export type App = RequestListener & { listen(port: number, host?: string, listening?: () => void): Server };

export function createApp(options: AppOptions): App {
  const { db, logger, publicUrl, now = () => new Date() } = options;
  const corsHeaders = cors({ exposedHeaders: ['Location', 'X-Request-Id', 'Retry-After', ...RATE_LIMIT_HEADERS] });
  const trust = compileTrust(options.trustProxy);
  const api = options.api ?? createApi({
    db,
    logger,
    publicUrl,
    bases: { appUrl: options.appUrl, publishedUrl: options.publishedUrl },
    now,
    handlers: options.handlers,
    rateLimiter: options.rateLimiter,
    metrics: options.metrics,
    cors: corsHeaders,
    onStatements: options.onStatements,
    cacheReads: options.cacheReads,
    trustProxy: options.trustProxy,
    samlSigning: options.samlSigning,
  });
  const urls = api.standaloneUrls;
  // Scripts of this process call back the API this server serves (createDocsApi, which passes `api`, decides for its own).
  if (!options.api) setScriptUrls(urls);
  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', trust); // req.ip, req.protocol, req.hostname of the Express routes agree with proxy-trust.ts
  // Responses are computed per caller (permissions); no client of the API revalidates with ETags.
  app.set('etag', false);
  app.use(healthRoutes(db, () => handle)); // /health and /ready: unauthenticated, and kept out of the request log (probes come every few seconds)
  if (options.metrics) {
    app.use(metricsRoute(options.metrics, options.metricsToken)); // outside /v1, not measured and not in the request log
    app.use(measureRequests(options.metrics));
  }
  app.use(corsHeaders);
  app.use(requestLog(logger));
  // A request for a site's custom hostname is that site's, whatever its path (but /v1).
  const ownHosts = [new URL(publicUrl).hostname, new URL(urls.published('')).hostname];
  app.use(customHostnameSites({ db, urls, log: logger }, ownHosts));

  app.use('/v1', api.routes); // files, PDFs, integration images, the published document: no bearer token
  // Integration public endpoints, SAML sign-in and the join links of invitations by email: no bearer token.
  app.use(api.besideRoutes(urls));
  app.use(referenceDocs({ publicUrl }));
  const publishedPath = new URL(urls.published('')).pathname.replace(/\/$/, '');
  app.use(publishedPath || '/', publishedSitesRouter({ db, urls, log: logger })); // published docs sites, to anyone they are visible to
  if (!options.appUrl) app.get('/app{/*rest}', webAppNotice()); // urls.app under this server: say where the app is, not 404
  app.use((req, res) => {
    res.status(404).json(errorBody(404, `No operation at ${req.method} ${req.path}`));
  });
  app.use(errorMiddleware(logger));

  const exchange = { logger, metrics: options.metrics, cors: corsHeaders };
  // A page of a published site, asked by path on one of this server's hosts, skips Express too: the same
  // steps (exchange.ts) and the same functions as Express's route for it, which keeps the other cases (a
  // host that may be a site's own, a mount at the root or under a path Express serves first, another
  // spelling of the path).
  const mayBeSiteHost = mayBeCustomHostname(ownHosts);
  const servedFirst = ['health', 'ready', 'metrics', 'integrations', 'auth', 'docs']; // first segments of the routes mounted before the sites
  const pagesSkipExpress = publishedPath !== '' && !servedFirst.includes(publishedPath.split('/')[1].toLowerCase());
  const sitePage = (req: IncomingMessage): SitePath | null | undefined => {
    const url = req.url ?? '';
    if (!pagesSkipExpress || (req.method !== 'GET' && req.method !== 'HEAD') || !url.startsWith(`${publishedPath}/`)) return undefined;
    if (mayBeSiteHost(hostnameOf(requestHost(req)))) return undefined;
    return sitePath(pathAndQuery(url).path.slice(publishedPath.length));
  };

  const handle: RequestListener = (req, res) => {
    trustProxies(req, trust);
    const url = req.url ?? '';
    if (isOperationPath(url)) return api.serve(req, res, () => void app(req, res), urls, url.slice(3));
    const page = sitePage(req);
    if (page !== undefined) return runExchange(exchange, req, res, () => undefined, () => serveSitePath({ db, urls, log: logger }, req, res, page, publishedPath, req.url!));
    void app(req, res);
  };
  return Object.assign(handle, { listen: (port: number, host?: string, listening?: () => void) => createServer(handle).listen(port, host, listening) });
}
