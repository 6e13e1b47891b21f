// The public endpoints of integrations (`urls.publicEndpoint`), served outside /v1 without a token, as
// an integration's own HTTP surface: a request to an endpoint (or below it) is handed to the published
// script's fetch as the request (method, URL with the path below the endpoint and the query, headers,
// body; for a `v2` script, a `fetch` event carrying it in GitBook's protocol, dispatch-protocol.ts), and
// its Response is the answer, with the integration's contentSecurityPolicy as the
// Content-Security-Policy header. The installation (and the space or site installation) in the path must
// exist; an installation with `site_selection: all` (`space_selection: all`) covers every site (live space) of its organization. Headers naming integration events (`x-integration-*`) are dropped, so a request cannot pass
// for an event delivery. A script that fails answers 502; one refused by its concurrency limit 503.
// In development mode the request goes to the tunnel instead, as the events do (tunnel-forward.ts).
import express, { type Request, type Response, type Router } from 'express';
import type { Db } from '../db/client.js';
import { newId } from '../ids.js';
import { bodyForScript, ScriptFailed, scriptResponseBytes, scriptServerOrigin, type ScriptRequest } from '../runtime/script-runtime.js';
import { forwardedToTunnel } from './delivery.job.js';
import { dispatchRequest, fetchEvent } from './dispatch-protocol.js';
import { loadScriptTarget, sandboxRunner, type ScriptRunner, type ScriptTarget } from './script-invocation.js';
import { SIGNING_SECRET_NAME } from './signature.js';
import { hopByHop, sendToTunnel } from './tunnel-forward.js';
import { PUBLISHED_SCRIPT_PATH, publishedScriptHandler } from './published-script.route.js';
import { cspHeader } from './integration-view.js';
import { VISITOR_AUTH_PATH } from './visitor-auth.js';
import { visitorAuthHandler } from './visitor-auth.route.js';
import { WEBFRAME_HOST_PATH, webframeHostHandler } from './webframe-host.js';

/** The largest request body handed to a script. */
const MAX_BODY = '1mb';

function errorAnswer(res: Response, status: number, message: string) {
  res.status(status).json({ error: { code: status, message } });
}

export function publicEndpointRoutes(db: Db, publicUrl: string, runner: ScriptRunner = sandboxRunner): Router {
  const router = express.Router();
  // The bytes as sent, whatever the content type: text reaches the script as text, other bytes as they are.
  const body = express.raw({ type: () => true, limit: MAX_BODY });

  /** `segments`: how many path segments the endpoint has; what follows them is below it. */
  const serve = (segments: number, targetOf: (req: Request) => ScriptTarget) => async (req: Request, res: Response) => {
    const name = String(req.params.name);
    const target = targetOf(req);
    // One statement: the integration, the installation in the path and the script with its env.
    const read = await loadScriptTarget(db, name, target);
    if (!read?.exists) return errorAnswer(res, 404, `No public endpoint at ${req.path}`);
    const { integration, loaded } = read;
    const headers: [string, string][] = [];
    for (const [key, value] of Object.entries(req.headers)) {
      if (key.startsWith('x-integration-') || value === undefined) continue;
      headers.push([key, Array.isArray(value) ? value.join(', ') : value]);
    }
    const bytes = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
    const csp = cspHeader(integration.contentSecurityPolicy);
    // The integration's own endpoint (no installation) belongs to its owner.
    const toTunnel = forwardedToTunnel(integration, read.organizationId ?? integration.organizationId);
    if (!loaded && !toTunnel) return errorAnswer(res, 404, `No public endpoint at ${req.path}`);
    const now = new Date();
    const eventId = newId('evt', now.getTime());
    const url = `${publicUrl}${req.originalUrl}`;
    // What the script gets: a fetch event in GitBook's protocol (v2), or the request itself (v1).
    const v2 = loaded?.protocol === 'v2';
    const scriptRequest: ScriptRequest = v2
      ? dispatchRequest(scriptServerOrigin(), fetchEvent(eventId, { method: req.method, url, headers, body: bytes }, target), loaded.environment!, bytes)
      : { method: req.method, url, headers, ...bodyForScript(bytes) };
    if (toTunnel) {
      try {
        const answer = await sendToTunnel({
          tunnelUrl: integration.devTunnelUrl!,
          below: v2 ? '' : belowEndpoint(req.originalUrl, segments),
          method: scriptRequest.method,
          headers: scriptRequest.headers,
          body: scriptResponseBytes(scriptRequest),
          eventId,
          ...(!v2 && { target }),
          signingSecret: loaded?.secrets[SIGNING_SECRET_NAME],
          now,
        });
        for (const [key, value] of answer.headers) if (!hopByHop.has(key.toLowerCase()) && key.toLowerCase() !== 'content-encoding') res.append(key, value);
        if (csp) res.setHeader('Content-Security-Policy', csp);
        res.status(answer.status).send(answer.body);
      } catch (err) {
        errorAnswer(res, 502, `The integration's development tunnel failed: ${err instanceof Error ? err.message : String(err)}`);
      }
      return;
    }
    try {
      const answer = await runner({ key: name, script: loaded!.script, scriptHash: loaded!.scriptHash, env: loaded!.env, request: scriptRequest });
      for (const [key, value] of answer.headers) if (!hopByHop.has(key.toLowerCase())) res.append(key, value);
      if (csp) res.setHeader('Content-Security-Policy', csp);
      res.status(answer.status).send(scriptResponseBytes(answer));
    } catch (err) {
      if (!(err instanceof ScriptFailed)) throw err;
      errorAnswer(res, err.message.startsWith('Too many invocations') ? 503 : 502, `The integration's script failed: ${err.message}`);
    }
  };

  // What a published page with ContentKit webframes loads to hand them their data (webframe-host.ts).
  router.get(WEBFRAME_HOST_PATH, webframeHostHandler);
  // The scripts published sites load, by the integration's fetch_published_script.
  router.get(PUBLISHED_SCRIPT_PATH, publishedScriptHandler(db, runner));
  // Where a visitor of a site signed in by the integration starts, by its fetch_visitor_authentication.
  router.get(VISITOR_AUTH_PATH, visitorAuthHandler(db, runner));
  const below = '{/*rest}';
  router.all(`/integrations/:name/integration${below}`, body, serve(3, () => ({})));
  router.all(`/integrations/:name/installations/:installationId/integration${below}`, body, serve(5, (req) => ({ installationId: String(req.params.installationId) })));
  router.all(
    `/integrations/:name/installations/:installationId/spaces/:spaceId/integration${below}`,
    body,
    serve(7, (req) => ({ installationId: String(req.params.installationId), spaceId: String(req.params.spaceId) })),
  );
  router.all(
    `/integrations/:name/installations/:installationId/sites/:siteId/integration${below}`,
    body,
    serve(7, (req) => ({ installationId: String(req.params.installationId), siteId: String(req.params.siteId) })),
  );
  return router;
}

/** What follows the endpoint's `segments` path segments in `originalUrl`: the path below it and the query. */
export function belowEndpoint(originalUrl: string, segments: number): string {
  const at = originalUrl.indexOf('?');
  const path = at < 0 ? originalUrl : originalUrl.slice(0, at);
  const rest = path.split('/').slice(segments + 1).join('/');
  return `${rest ? `/${rest}` : ''}${at < 0 ? '' : originalUrl.slice(at)}`;
}
