// Where a visitor of a site with `backend: integration` is sent to sign in or out (visitor-auth.ts):
// GET VISITOR_AUTH_PATH?location=<path below the site>[&action=logout], served outside /v1 without a token
// (the visitor's browser follows a redirect to it), on the integration's side of this server as its public
// endpoints are. It delivers `fetch_visitor_authentication` to the integration's script and answers what the
// script answers (a redirect to the identity provider, with the cookies it sets for its own callback), with
// the integration's contentSecurityPolicy. Only for an integration with the `site:visitor:auth` scope
// installed on the site (or on every site of its organization: `site_selection: all`), while the site's publishing auth has `backend: integration`; 404 otherwise. In
// development mode the request goes to the tunnel, as events do. A script that fails answers 502.
import type { Request, Response } from 'express';
import { eq } from 'drizzle-orm';
import type { Db } from '../db/client.js';
import { sites } from '../db/schema/index.js';
import { newId } from '../ids.js';
import { ScriptFailed } from '../runtime/script-runtime.js';
import { forwardedToTunnel } from './delivery.job.js';
import { cspHeader } from './integration-view.js';
import { loadScriptTarget, type ScriptRunner } from './script-invocation.js';
import { answerSiteEvent } from './site-event-answer.js';
import { hopByHop } from './tunnel-forward.js';
import { VISITOR_AUTH_SCOPE } from './visitor-auth.js';

/** The longest `location` passed on (a path and query of the site). */
const MAX_LOCATION = 2000;

function errorAnswer(res: Response, status: number, message: string) {
  res.status(status).json({ error: { code: status, message } });
}

/** The event's `location` (a path below the site, from `/`) and `searchParams` (that path's query), or the reason it is refused. */
export function visitorLocation(raw: unknown): { location: string; searchParams: Record<string, string> } | string {
  if (raw === undefined) return { location: '/', searchParams: {} };
  if (typeof raw !== 'string') return 'query.location: expected one path';
  // Only a path: `//host` and `\` would read as another site's address once appended to the site's URL.
  if (!raw.startsWith('/') || raw.startsWith('//') || raw.includes('\\') || raw.length > MAX_LOCATION) {
    return `query.location: expected a path below the site starting with "/" (at most ${MAX_LOCATION} characters)`;
  }
  const at = raw.indexOf('?');
  const searchParams = at < 0 ? {} : Object.fromEntries(new URLSearchParams(raw.slice(at + 1)));
  return { location: raw, searchParams };
}

/** The Express handler of VISITOR_AUTH_PATH. */
export function visitorAuthHandler(db: Db, runner: ScriptRunner) {
  return async (req: Request, res: Response) => {
    const { name, installationId, siteId } = req.params as { name: string; installationId: string; siteId: string };
    const missing = () => errorAnswer(res, 404, `No visitor authentication at ${req.path}`);
    const read = await loadScriptTarget(db, name, { installationId, siteId });
    if (!read?.exists || !read.integration.scopes.includes(VISITOR_AUTH_SCOPE)) return missing();
    const [site] = await db.select({ backend: sites.visitorAuthBackend }).from(sites).where(eq(sites.id, siteId));
    if (site?.backend !== 'integration') return missing();
    const { integration, loaded } = read;
    const toTunnel = forwardedToTunnel(integration, read.organizationId);
    if (!loaded && !toTunnel) return missing();

    const where = visitorLocation(req.query.location);
    if (typeof where === 'string') return errorAnswer(res, 400, `Invalid request: ${where}`);
    const action = req.query.action;
    if (action !== undefined && action !== 'logout') return errorAnswer(res, 400, 'Invalid request: query.action: expected "logout" or nothing');

    const now = new Date();
    const event = {
      eventId: newId('evt', now.getTime()),
      type: 'fetch_visitor_authentication',
      installationId,
      siteId,
      location: where.location,
      searchParams: where.searchParams,
      ...(action && { action }),
    };
    const csp = cspHeader(integration.contentSecurityPolicy);
    res.setHeader('Cache-Control', 'no-store');
    try {
      const { status, headers, body } = await answerSiteEvent({ integration, loaded, toTunnel, runner, event, now });
      for (const [key, value] of headers) if (!hopByHop.has(key.toLowerCase()) && key.toLowerCase() !== 'cache-control') res.append(key, value);
      if (csp) res.setHeader('Content-Security-Policy', csp);
      res.status(status).send(body);
    } catch (err) {
      if (!(err instanceof ScriptFailed) && !(err instanceof Error && toTunnel)) throw err;
      errorAnswer(res, 502, `The integration's visitor authentication failed: ${err instanceof Error ? err.message : String(err)}`);
    }
  };
}
