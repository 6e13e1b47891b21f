// createApp(config): middleware + the generated router bound to the handlers. No global state, so
// tests create as many apps as they like.
import cors from 'cors';
import express, { type Express } from 'express';
import type { Logger } from 'pino';
import { authenticationMiddleware, createAuthenticator } from './auth/authenticate.js';
import { createCtx, type Caller, type Ctx } from './context.js';
import type { Db } from './db/client.js';
import type { AppHandlers } from './handler-types.js';
import { handlers } from './handlers.js';
import { bindRoutes } from './http/bind.js';
import { errorBody, errorMiddleware } from './http/errors.js';
import { healthRoutes } from './http/health.js';
import { methodNotAllowed } from './http/method-not-allowed.js';
import { referenceDocs } from './http/reference-docs.js';
import { requestLog } from './http/request-log.js';
import { createUrls } from './http/urls.js';
import { ASSETS_PATH, integrationAssetsRoute } from './integrations/assets.route.js';
import { changeRequestPdfRoute, PDF_PATH } from './change-requests/pdf.route.js';
import type { SamlSigning } from './sso/saml-settings.js';
import { samlRoutes } from './sso/saml.routes.js';

export interface AppOptions {
  db: Db;
  logger: Logger;
  /** Base of the absolute URLs in responses, e.g. `https://api.example.com`. */
  publicUrl: string;
  /** The clock; defaults to the real one. */
  now?: () => Date;
  /** The operation handlers; defaults to the real ones (the hybrid-mock test swaps one for its 501 stub). */
  handlers?: AppHandlers;
  /** The key and certificate this service signs its SAML AuthnRequests with; absent: requests are not signed. */
  samlSigning?: SamlSigning;
}

export function createApp(options: AppOptions): Express {
  const { db, logger, publicUrl, now = () => new Date() } = options;
  const urls = createUrls(publicUrl);
  const app = express();
  app.disable('x-powered-by');
  // Responses are computed per caller (permissions); no client of the API revalidates with ETags.
  app.set('etag', false);
  app.use(healthRoutes(db)); // /health and /ready: unauthenticated, and kept out of the request log (probes come every few seconds)
  app.use(cors({ exposedHeaders: ['Location', 'X-Request-Id'] }));
  app.use(requestLog(logger));

  // Integration images are loaded by browsers without a token, so they are served before authentication.
  app.get(ASSETS_PATH, integrationAssetsRoute(db));
  app.get(PDF_PATH, changeRequestPdfRoute(db, now)); // change-request PDF links carry their own token
  app.use(samlRoutes({ db, now, urls, log: logger, signing: options.samlSigning })); // SAML sign-in: browsers and identity providers, no bearer token
  app.use(referenceDocs({ publicUrl }));
  const v1 = express.Router();
  v1.use(authenticationMiddleware(createAuthenticator(db)));
  v1.use(bindRoutes(options.handlers ?? handlers, (req, res): Ctx => createCtx({ caller: res.locals.caller as Caller, db, now, urls, log: logger, requestId: req.id })));
  v1.use(methodNotAllowed());
  app.use('/v1', v1);
  app.use((req, res) => {
    res.status(404).json(errorBody(404, `No operation at ${req.method} ${req.path}`));
  });
  app.use(errorMiddleware(logger));
  return app;
}
