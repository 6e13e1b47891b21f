// The SAML sign-in routes, outside /v1 and without a bearer token (browsers and identity providers reach
// them): start, assertion consumer, metadata, the code exchange and the default signed-in page. Every
// refusal is logged with its reason and answered with a 4xx; nobody is signed in by a refused request.
import express, { Router, type NextFunction, type Request, type Response } from 'express';
import { errorBody } from '../http/errors.js';
import { completeSignIn, serviceMetadata, startSignIn, type SignInDeps } from './saml-sign-in.js';
import { SSO_PATHS, tokenUrl } from './service-urls.js';
import { CODE_TTL_MS, exchangeSignInCode } from './sign-in-codes.js';
import { SignInRefused } from './sign-in-refused.js';

// A signed Response with a certificate is a few kB; identity providers that add many attributes stay far below this.
const FORM_LIMIT = '512kb';

const noStore = { 'Cache-Control': 'no-store', Pragma: 'no-cache', 'Referrer-Policy': 'no-referrer' };

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

export function samlRoutes(deps: SignInDeps): Router {
  const router = Router();

  /** Logs a refusal (reason, provider, detail; never the response or a code) and answers it. */
  const refuse = (err: unknown, req: Request, res: Response, next: NextFunction) => {
    if (!(err instanceof SignInRefused)) return next(err);
    deps.log.warn({ reqId: req.id, providerId: req.params.providerId, reason: err.reason, detail: err.detail }, 'SAML sign-in refused');
    res.status(err.status).set(noStore).json(errorBody(err.status, err.message));
  };

  router.get(SSO_PATHS.start, async (req, res, next) => {
    try {
      const location = await startSignIn(deps, String(req.params.providerId), req.query.returnTo);
      res.set(noStore).redirect(302, location);
    } catch (err) {
      refuse(err, req, res, next);
    }
  });

  router.post(SSO_PATHS.acs, express.urlencoded({ extended: false, limit: FORM_LIMIT, parameterLimit: 10 }), async (req, res, next) => {
    try {
      const result = await completeSignIn(deps, String(req.params.providerId), req.body);
      deps.log.info({ reqId: req.id, providerId: req.params.providerId, userId: result.userId, organizationId: result.organizationId, joined: result.joined }, 'SAML sign-in');
      // 303: the browser follows with a GET, not a second POST of the response.
      res.set(noStore).redirect(303, result.redirect);
    } catch (err) {
      refuse(err, req, res, next);
    }
  });

  router.get(SSO_PATHS.metadata, async (req, res, next) => {
    try {
      const xml = await serviceMetadata(deps, String(req.params.providerId));
      res.status(200).type('application/samlmetadata+xml').send(xml);
    } catch (err) {
      refuse(err, req, res, next);
    }
  });

  router.post(SSO_PATHS.token, express.json({ limit: '4kb' }), express.urlencoded({ extended: false, limit: '4kb', parameterLimit: 5 }), async (req, res, next) => {
    try {
      const signedIn = await exchangeSignInCode(deps.db, (req.body as { code?: unknown } | undefined)?.code, deps.now());
      deps.log.info({ reqId: req.id, userId: signedIn.userId, organizationId: signedIn.organizationId }, 'SAML sign-in code exchanged');
      res.status(200).set(noStore).json({ object: 'sso-token', ...signedIn });
    } catch (err) {
      next(err);
    }
  });

  // The default return page: shows the code so a person can hand it to the app or script that started the
  // sign-in. A GET never consumes the code (link previewers and prefetchers send GETs).
  router.get(SSO_PATHS.signedIn, (req, res) => {
    const code = typeof req.query.code === 'string' ? req.query.code : '';
    const body = code
      ? `<p>You are signed in. Your one-time code (valid ${CODE_TTL_MS / 60_000} minutes, usable once):</p><pre>${escapeHtml(code)}</pre>` +
        `<p>Exchange it for an access token with <code>POST ${escapeHtml(tokenUrl(deps.urls))}</code> and the body <code>{"code": "…"}</code>.</p>`
      : '<p>No sign-in code here: start the sign-in again from your organization\'s sign-in options.</p>';
    res
      .status(code ? 200 : 400)
      .set({ ...noStore, 'Content-Security-Policy': "default-src 'none'", 'X-Content-Type-Options': 'nosniff' })
      .type('html')
      .send(`<!doctype html><html lang="en"><head><meta charset="utf-8"><title>SSO sign-in</title></head><body>${body}</body></html>`);
  });

  return router;
}
