// HTTP caching of what a published site answers its readers (docs/sites.md, "HTTP caching"): the
// Cache-Control and Vary of an answer, and its ETag with If-None-Match answered 304.
//
// The ETag is a hash of the bytes the answer would carry (its body and the policy header that goes with it),
// so it cannot name anything but what is sent now: a merge, a customization, a redirect or other claims that
// change the page change the tag, in any process, and a deploy that renders differently too. Whatever is
// served from the page cache (page-cache.ts) hashes its HTML once, not per request.
import { createHash } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { SiteRow } from '../sites/site-view.js';

/** Seconds a shared cache (a CDN, a proxy) or a browser may serve a page of a public site without asking. */
export const FRESH_SECONDS = 60;
/** Seconds after that during which a cache may still answer with the page while it revalidates it in the background. */
export const STALE_SECONDS = 300;

/** Whether every reader of the site gets the same answer at a URL: public or unlisted, without adaptive content. */
export function sameForEveryReader(site: Pick<SiteRow, 'visibility' | 'adaptiveEnabled'>): boolean {
  return (site.visibility === 'public' || site.visibility === 'unlisted') && !site.adaptiveEnabled;
}

/**
 * Cache-Control and Vary of a reader's answer from the site (a page, a redirect, its sitemap, robots.txt,
 * llms.txt, a page's Markdown). A site every reader sees alike may be kept by any cache for a minute and
 * served stale while revalidated; another (share link, visitor token, adaptive claims) only by the reader's
 * browser, which asks again each time, so the site checks their access before it answers 304.
 */
export function setReaderCaching(res: ServerResponse, site: Pick<SiteRow, 'visibility' | 'adaptiveEnabled' | 'agentsContext'>): void {
  res.setHeader('Cache-Control', sameForEveryReader(site) ? `public, max-age=${FRESH_SECONDS}, stale-while-revalidate=${STALE_SECONDS}` : 'private, no-cache');
  const vary: string[] = [];
  // The visitor's token, their unsigned claims and a member's token come in the site's cookies.
  if (site.visibility === 'visitor-auth' || site.adaptiveEnabled) vary.push('Cookie');
  // The AI crawlers robots.txt names are refused (403) on such a site: the answer depends on who asks.
  if (site.agentsContext === 'excluded') vary.push('User-Agent');
  if (vary.length > 0) res.setHeader('Vary', vary.join(', '));
}

/** An answer no cache may keep: an error, a sign-in, a search (its index is updated after the merge). */
export function setNotKept(res: ServerResponse): void {
  res.setHeader('Cache-Control', 'no-store');
}

/** A weak ETag of `parts` (the body, and the headers whose change must change the tag). */
export function etagOf(...parts: string[]): string {
  const hash = createHash('sha1');
  for (const part of parts) hash.update(part).update('\u0000');
  return `W/"${hash.digest('base64url')}"`;
}

// The tags of the answers the page cache keeps, with the policy header they were computed with.
const tags = new WeakMap<object, { policy: string; etag: string }>();

/** The ETag of a kept answer `answer` whose body is `body`, sent with the Content-Security-Policy `policy`: hashed once. */
export function keptEtag(answer: object, body: string, policy: string): string {
  const known = tags.get(answer);
  if (known?.policy === policy) return known.etag;
  const etag = etagOf(body, policy);
  tags.set(answer, { policy, etag });
  return etag;
}

/** Whether an If-None-Match header matches `etag` (weak comparison, RFC 9110 §13.1.2; `*` matches any answer). */
export function matchesIfNoneMatch(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  const opaque = etag.replace(/^W\//, '');
  return header.split(',').some((tag) => {
    const t = tag.trim();
    return t === '*' || t.replace(/^W\//, '') === opaque;
  });
}

/**
 * Sets the ETag and, when the request's If-None-Match holds it, answers 304 with no body (the headers
 * already set stay: Cache-Control, Vary, the policy a cache updates its copy with). True when it answered.
 */
export function answeredNotModified(req: IncomingMessage, res: ServerResponse, etag: string): boolean {
  res.setHeader('ETag', etag);
  if ((req.method !== 'GET' && req.method !== 'HEAD') || !matchesIfNoneMatch(req.headers['if-none-match'], etag)) return false;
  res.statusCode = 304;
  res.end();
  return true;
}
