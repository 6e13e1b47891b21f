// What a URL of a published site shows a visitor: the one resolution behind both the site's own pages
// (server/published/published.routes.ts) and getPublishedContentByUrl (url-lookup.ts), so the two cannot
// drift. Given the site, the path after its home and the visitor: the section and site space (navigation.ts,
// through their conditions), the page the visitor may read, or a redirect (a group to its first page, a
// redirect of the site, a redirect of the space, a page that moved), or nothing.
import { LRUCache } from 'lru-cache';
import type { Visitor } from '../conditions/evaluate.js';
import type { Db } from '../db/client.js';
import { navigate, readablePages, readingOrder, joinPath, variantPath, type Navigation } from '../published/navigation.js';
import { spaceTree, structureOf, type FoundSite, type SiteStructure, type SpaceTree, type TreePage, type TreeRead } from '../published/site-data.js';
import { liveRedirects, matchRedirect, type SiteRedirectRow } from '../sites/site-redirects.store.js';
import { sameSecret, shareKeySegment, type SiteRow } from '../sites/site-view.js';
import { movedPage } from './moved-pages.js';
import { redirectLocation } from './redirect-target.js';

/** The site space a URL is in, with what the visitor may read of it. */
export interface VariantView {
  tree: SpaceTree;
  readable: TreePage[];
  /** The readable pages with content, in reading order (hidden ones aside). */
  order: TreePage[];
  /** Its path under the site's home (`section/variant`, '' for the default at the root). */
  path: string;
}

export interface Resolution {
  structure: SiteStructure;
  nav: Navigation;
  variant?: VariantView;
  /** The page shown, when the path names one the visitor may read (the first page for the site space's own URL). */
  target?: TreePage;
  /** Where to go instead, under the site's home (`/…`) or absolute when external. */
  redirect?: { location: string; external: boolean; status: 302 | 307 | 308 };
}

/**
 * A share-link site's key, taken from the start of the path: the site's home then includes it. Undefined when
 * the path does not carry the right key (or the site is not a share-link one and nothing is to be taken).
 */
export function openShareLink(site: SiteRow, base: string, segments: string[]): { base: string; segments: string[] } | undefined {
  if (site.visibility !== 'share-link') return { base, segments };
  if (segments[0] !== shareKeySegment || !segments[1] || !sameSecret(segments[1], site.shareKey)) return undefined;
  return { base: `${base}/${shareKeySegment}/${encodeURIComponent(segments[1])}`, segments: segments.slice(2) };
}

// Live redirects of each site as of its stamp (which changes with any of them).
const redirectsBySite = new LRUCache<string, { stamp: string; redirects: SiteRedirectRow[] }>({ max: 1000 });

/** The stamp of the site `siteId` as of which this process holds its live redirects. */
export function heldRedirectsStamp(siteId: string): string | undefined {
  return redirectsBySite.get(siteId)?.stamp;
}

/** Keeps the live redirects of the site `found`, read in the statement that found it (resolution-along.ts). */
export function keepRedirects(found: FoundSite, redirects: SiteRedirectRow[]): void {
  redirectsBySite.set(found.site.id, { stamp: found.stamp, redirects });
}

async function redirectsOf(db: Db, found: FoundSite): Promise<SiteRedirectRow[]> {
  const cached = redirectsBySite.get(found.site.id);
  if (cached?.stamp === found.stamp) return cached.redirects;
  const redirects = await liveRedirects({ db }, found.site.id);
  redirectsBySite.set(found.site.id, { stamp: found.stamp, redirects });
  return redirects;
}

/** A permanent move: 308 where the site is open to all, 307 elsewhere (so no shared cache keeps it). */
function moveStatus(site: SiteRow, permanent: boolean): 307 | 308 {
  return permanent && (site.visibility === 'public' || site.visibility === 'unlisted') ? 308 : 307;
}

/**
 * What `segments` (after the site's home, a share-link key taken) show `visitor`; page trees read by `treeRead`:
 * with their Documents (spaceTree, the default: the site's pages show them), or without.
 */
export async function resolveInSite(db: Db, found: FoundSite, visitor: Visitor, segments: string[], treeRead: TreeRead = spaceTree): Promise<Resolution> {
  const { site } = found;
  const structure = await structureOf(db, found);
  const nav = navigate(site, structure, visitor, segments);
  let variant: VariantView | undefined;
  let target: TreePage | undefined;
  if (nav.variant) {
    const tree = await treeRead(db, nav.variant.space);
    const readable = readablePages(tree, visitor);
    variant = { tree, readable, order: readingOrder(readable), path: variantPath(nav.section, nav.variant) };
    const pagePath = nav.rest.join('/');
    target = pagePath === '' ? variant.order[0] : readable.find((p) => p.path === pagePath);
    if (target?.page.type === 'group') {
      const inside = variant.order.find((p) => p.path.startsWith(`${target!.path}/`));
      if (inside) return { structure, nav, variant, redirect: { location: `/${joinPath(variant.path, inside.path)}`, external: false, status: 302 } };
      target = undefined;
    }
    // A link page's own path leads where it points.
    if (target?.page.type === 'link' && target.page.target) {
      const link = target.page.target;
      if (link.kind === 'url' && /^(?:https?:\/\/|mailto:)/i.test(link.url)) return { structure, nav, variant, redirect: { location: link.url, external: true, status: 302 } };
      const to = link.kind === 'url' ? undefined : readable.find((p) => p.page.id === link.page);
      if (to) return { structure, nav, variant, redirect: { location: `/${joinPath(variant.path, to.path)}${link.kind === 'anchor' ? `#${encodeURIComponent(link.anchor)}` : ''}`, external: false, status: 302 } };
      target = undefined;
    }
    if (target || pagePath === '') return { structure, nav, variant, target };
  }
  // Nothing the visitor may read here: a redirect of the site, else a page of the space that moved.
  const matched = matchRedirect(await redirectsOf(db, found), `/${segments.map(encodeURIComponent).join('/')}`);
  const location = matched && (await redirectLocation(db, structure, matched.redirect, matched.rest, treeRead));
  if (matched && location) return { structure, nav, variant, redirect: { ...location, status: moveStatus(site, matched.redirect.permanent) } };
  if (nav.variant && variant && nav.rest.length > 0) {
    // A redirect of the space itself (its Git Sync `.gitbook.yaml`), to a page the visitor may read.
    const redirected = variant.tree.content.redirects?.[nav.rest.join('/')];
    const to = redirected === undefined ? undefined : variant.readable.find((p) => p.page.id === redirected);
    if (to) return { structure, nav, variant, redirect: { location: `/${joinPath(variant.path, to.path)}`, external: false, status: moveStatus(site, true) } };
    const moved = await movedPage(db, nav.variant.space, variant.tree, nav.rest.join('/'), treeRead);
    if (moved && variant.readable.includes(moved)) {
      return { structure, nav, variant, redirect: { location: `/${joinPath(variant.path, moved.path)}`, external: false, status: moveStatus(site, true) } };
    }
  }
  return { structure, nav, variant };
}
