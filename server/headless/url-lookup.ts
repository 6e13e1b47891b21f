// getPublishedContentByUrl / resolvePublishedContentByUrl: a URL the published site serves, resolved as the
// site resolves it (resolve.ts), with an API token for the site's published content the visitor may see
// (server/auth/site-tokens.ts). A URL of no site, of an unpublished one, or of nothing the visitor may read
// is one 404 whatever the reason, as the site itself answers.
import type { components } from '../../generated/types.js';
import { siteHostnamePattern } from '../../contract/sites.js';
import { mintSiteToken } from '../auth/site-tokens.js';
import type { Ctx } from '../context.js';
import { NotFound } from '../errors.js';
import { PUBLIC_SPECS_SEGMENT } from '../openapi/public-spec.js';
import { joinPath, placesOf, type Navigation } from '../published/navigation.js';
import { outlineTree } from '../published/outline-trees.js';
import { findSiteByHostWith, findSiteByPathWith, lastFoundByHost, lastFoundByPath, type FoundSite } from '../published/site-data.js';
import { resolutionAlong, takeAlong } from './resolution-along.js';
import { CLAIM_PARAM_PREFIX, TOKEN_PARAM, verifyVisitorToken, visitorFrom } from '../published/visitor.js';
import { visitorKey } from '../sites/publishing-auth.js';
import { openShareLink, resolveInSite } from './resolve.js';
import { sitePath } from './site-path.js';

type Lookup = components['schemas']['PublishedSiteContentLookup'];

export interface UrlQuestion {
  url: string;
  /** Where the URL came from (`query.url`, `body.url`), which the 404 names. */
  field: string;
  redirectOnError: boolean;
  jwtToken?: string;
  unsignedClaims?: Record<string, unknown>;
}


interface Located {
  found: FoundSite;
  origin: string;
  base: string;
  segments: string[];
}

/**
 * The site a URL is of, as the server routes it: under PUBLISHED_URL by path, else by custom hostname. What
 * resolving its path needs comes in the same statement (resolution-along.ts), when one is sent.
 */
async function locate(ctx: Ctx, url: URL): Promise<Located | undefined> {
  const published = new URL(ctx.urls.published(''));
  const mount = published.pathname.replace(/\/$/, '');
  if (url.origin === published.origin && (url.pathname === mount || url.pathname.startsWith(`${mount}/`))) {
    const at = sitePath(url.pathname.slice(mount.length) || '/');
    if (!at || at.org === PUBLIC_SPECS_SEGMENT) return undefined;
    const read = await findSiteByPathWith(ctx.db, at.org, at.site, () => resolutionAlong(lastFoundByPath(at.org, at.site), at.segments));
    if (!read) return undefined;
    await takeAlong(ctx.db, read.found, read.along);
    return { found: read.found, origin: url.origin, base: `${mount}/${encodeURIComponent(at.org)}/${encodeURIComponent(at.site)}`, segments: at.segments };
  }
  const host = url.hostname.toLowerCase();
  if (!siteHostnamePattern.test(host) || host === published.hostname) return undefined;
  let segments: string[];
  try {
    segments = url.pathname.split('/').filter(Boolean).map((s) => decodeURIComponent(s));
  } catch {
    return undefined;
  }
  const read = await findSiteByHostWith(ctx.db, host, () => resolutionAlong(lastFoundByHost(host), segments));
  if (!read) return undefined;
  await takeAlong(ctx.db, read.found, read.along);
  return { found: read.found, origin: `https://${host}`, base: '', segments };
}

export async function lookUpUrl(ctx: Ctx, question: UrlQuestion): Promise<Lookup> {
  // One message whatever the reason, so no answer tells whether a site is there.
  const nothingHere = () => new NotFound(`${question.field}: no published content found at this URL`);
  const url = new URL(question.url);
  const located = await locate(ctx, url);
  if (!located || !located.found.site.published) throw nothingHere();
  const { found, origin } = located;
  const { site } = found;
  const opened = openShareLink(site, located.base, located.segments);
  if (!opened) throw nothingHere();
  const { base, segments } = opened;

  // The visitor: a token given, else one the URL carries (as the site takes it from its query), and unsigned claims likewise.
  const token = question.jwtToken ?? url.searchParams.get(TOKEN_PARAM) ?? undefined;
  const signed = token && (site.visibility === 'visitor-auth' || site.adaptiveEnabled) ? await verifyVisitorToken(token, await visitorKey(ctx, site)) : undefined;
  if (site.visibility === 'visitor-auth' && !signed) {
    if (question.redirectOnError && site.visitorAuthFallbackUrl) {
      const fallback = new URL(site.visitorAuthFallbackUrl);
      fallback.searchParams.set('location', `${base}/${segments.map(encodeURIComponent).join('/')}`.replace(/\/$/, '') || '/');
      return { target: 'application', redirect: fallback.toString() };
    }
    throw nothingHere();
  }
  const unsigned: Record<string, unknown> = {};
  for (const [name, value] of url.searchParams) {
    if (name.startsWith(CLAIM_PARAM_PREFIX)) unsigned[name.slice(CLAIM_PARAM_PREFIX.length)] = value === 'true' ? true : value === 'false' ? false : value;
  }
  Object.assign(unsigned, question.unsignedClaims);
  const visitor = visitorFrom(site, signed || undefined, () => unsigned);

  // The trees without their Documents: resolution shows none.
  const resolution = await resolveInSite(ctx.db, found, visitor, segments, outlineTree);
  if (resolution.redirect) {
    const { location, external } = resolution.redirect;
    return external ? { target: 'external', site: site.id, redirect: location } : { target: 'content', redirect: `${origin}${base}${location}` };
  }
  const { nav, variant, target } = resolution;
  // A path under a site space that shows no page (a missing page, one the visitor may not read, a path of the
  // renderer's own such as `~gitbook/search`) still resolves the site, with that path as `pathname` and no
  // `page`: the renderer decides what to show (its 404 page, its search), as GitBook's API answers.
  if (!nav.variant || !variant) throw nothingHere();

  // The token reads the spaces of every site space the visitor may see on the site.
  const spaceIds = [...new Set(placesOf(site, resolution.structure, visitor).flatMap((place) => place.variants.map((v) => v.space.id)))];
  const { token: apiToken } = await mintSiteToken(
    ctx.db,
    {
      siteId: site.id,
      organizationId: site.organizationId,
      spaceIds,
      claims: visitor.claims,
      siteSpaceId: nav.variant.row.id,
      spaceId: nav.variant.space.id,
      ...(nav.section && { siteSectionId: nav.section.id }),
    },
    ctx.now(),
  );
  const siteBasePath = `${base}/`;
  const basePath = `${base}/${joinPath(variant.path)}/`.replace(/\/+$/, '/');
  const pathname = target ? (nav.rest.length ? joinPath(target.path) : '') : joinPath(nav.rest.join('/'));
  return {
    site: site.id,
    organization: site.organizationId,
    ...(nav.section && { siteSection: nav.section.id }),
    siteSpace: nav.variant.row.id,
    space: nav.variant.space.id,
    revision: variant.tree.revisionId,
    pathname,
    basePath,
    siteBasePath,
    apiToken,
    ...(site.visibility === 'share-link' && { shareKey: site.shareKey }),
    complete: isComplete(nav, segments),
    canonicalUrl: `${origin}${basePath}${target ? joinPath(target.path) : pathname}`,
    ...(target && { page: target.page.id }),
  };
}

/**
 * Whether no more site segments (a section's, a site space's) could follow in the URL before a page path: GitBook's
 * `complete`. A renderer looks up several prefixes of a URL at once and takes a shorter one's answer only when it is
 * complete (appending the rest as the page path), so a prefix that took a default section or site space where a
 * longer URL could name another is not complete. The section must be named by the URL's first segment (or the site
 * have none, or the URL name a site space at the root beside the sections), and the site space by the next segment,
 * even when it is the only one: the site serves it under its path (`basePath`), and a renderer that took the site's
 * home as complete would read `<site space path>/<page>` as a page path.
 */
function isComplete(nav: Navigation, segments: string[]): boolean {
  let at = 0;
  if (nav.sections.length > 0) {
    if (nav.section) {
      if (segments[0] !== nav.section.path) return false;
      at = 1;
    }
    // No section: the URL named a site space at the root beside the sections (navigate found it by its segment).
  }
  // The site serves every site space under its path, the default one too (its pages also answer without it): a URL
  // that did not name it could be followed by its segment.
  return nav.variant !== undefined && (nav.variant.row.path === '' || segments[at] === nav.variant.row.path);
}

