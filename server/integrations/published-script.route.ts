// The scripts published sites load (`scripts[].script` of a site's published profile, `<script src>` of its
// pages): GET /integrations/{name}/installations/{id}/sites/{siteId}/script.js, served outside /v1 without a
// token (browsers load it), made by the integration's `fetch_published_script` with the site installation's
// environment (its configuration: an analytics integration writes its tracking id into the script). Only
// for an integration with the `site:script:inject` scope, installed on the site (or on every site of its
// organization). The answer is the script's: its status, Content-Type and Cache-Control; it is kept in
// this process for as long as its Cache-Control allows a shared cache to (max-age / s-maxage, not
// no-store, private or no-cache), keyed by the integration's version and the configurations, so a new
// publication or configuration is used at once. In development mode the request goes to the tunnel, as
// the events do. A script that fails answers 502.
import { createHash } from 'node:crypto';
import type { Request, Response } from 'express';
import { LRUCache } from 'lru-cache';
import type { Db } from '../db/client.js';
import { newId } from '../ids.js';
import { ScriptFailed } from '../runtime/script-runtime.js';
import { forwardedToTunnel } from './delivery.job.js';
import { loadScriptTarget, type ScriptRunner } from './script-invocation.js';
import { answerSiteEvent } from './site-event-answer.js';

export const PUBLISHED_SCRIPT_PATH = '/integrations/:name/installations/:installationId/sites/:siteId/script.js';

interface Kept {
  status: number;
  contentType: string;
  cacheControl: string | undefined;
  body: Buffer;
}
const kept = new LRUCache<string, Kept>({ max: 1000, maxSize: 20 * 1024 * 1024, sizeCalculation: (k) => k.body.length + 1, ttlAutopurge: false });

/** How long a shared cache may keep an answer with this Cache-Control, in seconds (0: not at all). */
export function sharedMaxAge(cacheControl: string | undefined): number {
  if (!cacheControl) return 0;
  const directives = cacheControl.toLowerCase().split(',').map((d) => d.trim());
  if (directives.some((d) => d === 'no-store' || d === 'private' || d === 'no-cache')) return 0;
  const value = (name: string) => directives.find((d) => d.startsWith(`${name}=`))?.slice(name.length + 1);
  const seconds = Number(value('s-maxage') ?? value('max-age') ?? 0);
  return Number.isFinite(seconds) && seconds > 0 ? Math.min(seconds, 24 * 3600) : 0;
}

function errorAnswer(res: Response, status: number, message: string) {
  res.status(status).json({ error: { code: status, message } });
}

function send(res: Response, answer: Kept) {
  res.status(answer.status);
  res.setHeader('Content-Type', answer.contentType);
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.setHeader('Cache-Control', answer.cacheControl ?? 'no-cache');
  res.send(answer.body);
}

/** The Express handler of PUBLISHED_SCRIPT_PATH. */
export function publishedScriptHandler(db: Db, runner: ScriptRunner) {
  return async (req: Request, res: Response) => {
    const { name, installationId, siteId } = req.params as { name: string; installationId: string; siteId: string };
    const read = await loadScriptTarget(db, name, { installationId, siteId });
    const missing = () => errorAnswer(res, 404, `No script at ${req.path}`);
    // Installed on the site, or on every site of its organization (loadScriptTarget counts both as there).
    if (!read?.exists || !read.installation || !read.integration.scopes.includes('site:script:inject')) return missing();
    const { integration, loaded } = read;
    const toTunnel = forwardedToTunnel(integration, read.organizationId);
    if (!loaded && !toTunnel) return missing();
    const configurations = JSON.stringify([read.installation.configuration, loaded?.environment?.siteInstallation?.configuration ?? loaded?.env.siteConfiguration ?? null]);
    const key = `${name}\0${installationId}\0${siteId}\0${integration.version}\0${createHash('sha256').update(configurations).digest('base64')}`;
    const known = toTunnel ? undefined : kept.get(key);
    if (known) return send(res, known);

    const now = new Date();
    const event = { eventId: newId('evt', now.getTime()), type: 'fetch_published_script', installationId, siteId };
    try {
      const got = await answerSiteEvent({ integration, loaded, toTunnel, runner, event, now });
      const header = (wanted: string) => got.headers.find(([k]) => k.toLowerCase() === wanted)?.[1];
      const answer: Kept = {
        status: got.status,
        contentType: header('content-type') ?? 'application/javascript',
        // A tunnel's answer is the publisher's work in progress: never kept, here or by the browser.
        cacheControl: toTunnel ? 'no-cache' : header('cache-control'),
        body: got.body,
      };
      const ttl = !toTunnel && answer.status === 200 ? sharedMaxAge(answer.cacheControl) : 0;
      if (ttl > 0) kept.set(key, answer, { ttl: ttl * 1000 });
      send(res, answer);
    } catch (err) {
      if (!(err instanceof ScriptFailed) && !(err instanceof Error && toTunnel)) throw err;
      errorAnswer(res, 502, `The integration's published script failed: ${err instanceof Error ? err.message : String(err)}`);
    }
  };
}
