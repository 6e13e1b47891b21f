// Published docs sites, served to their readers as HTML (outside /v1, without an API token):
//   <PUBLISHED_URL>/<organization hostname or id>/<basename or site id>/<section>/<site space>/<page path>
// and, for a request whose Host is a site's custom hostname, the same from `/` of that host. A share-link
// site is served under `…/~s/<share key>/`; a visitor-auth site needs a visitor token (visitor.ts). An
// unknown, unpublished or unreachable site answers the same 404, so no URL tells whether a site exists.
// Every request reads the site row with the stamp of what its pages are made of (one statement), so
// unpublishing or deleting takes the site down at once, and any change shows at the next request; the
// answer to a page is then kept under that stamp, the path and the visitor's claims (page-cache.ts). What
// caches in front of the server (a CDN, the reader's browser) may keep, and the ETags they revalidate with,
// reader-caching.ts says.
import { requestHost } from '../http/proxy-trust.js';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { parse as parseQuery } from 'node:querystring';
import type { RequestHandler } from 'express';
import { siteHostnamePattern } from '../../contract/sites.js';
import type { Db } from '../db/client.js';
import type { Urls } from '../urls.js';
import { siteCustomization, siteSpaceCustomization } from '../sites/customization.js';
import { visitorKey } from '../sites/publishing-auth.js';
import { mergeContentSecurityPolicy, siteScriptsOf, type SiteScript } from '../sites/site-scripts.js';
import { signOutPath, visitorsSignIn, type SiteRow } from '../sites/site-view.js';
import { joinPath, navigate, pageIndexable, placesOf, readablePages, readingOrder, variantPath, sectionSegment, type Navigation } from './navigation.js';
import { editLinkOf } from '../git-sync/edit-link.js';
import { escapeHtml, notFoundHtml, pageHtml, signInHtml, type Link, type SidebarEntry } from './page-html.js';
import { renderDocumentPage } from './render-markdown.js';
import type { EmbedLog } from '../embeds/embeds.js';
import { renderWithIntegrationBlocks, webframeScripts } from './integration-blocks.js';
import { cachedAnswer, answerKey, placeOfKey, type Answer } from './page-cache.js';
import { prebuilderOf } from './page-prebuild.js';
import { answeredNotModified, etagOf, keptEtag, setNotKept, setReaderCaching } from './reader-caching.js';
import { findSiteByHost, findSiteByPath, spaceTree, structureOf, type FoundSite, type SiteStructure, type TreePage } from './site-data.js';
import { forgetToken, takeFromQuery, verifiedClaims, visitorOf } from './visitor.js';
import { sitePath, type SitePath } from '../headless/site-path.js';
import { openShareLink, resolveInSite, type Resolution } from '../headless/resolve.js';
import { searchPage } from './site-search.js';
import { isAiAgent, opensWithTitle, robotsTxt } from './agents.js';
import { customizationLinks } from './customization-links.js';
import type { Visitor } from '../conditions/evaluate.js';
import { asksMarkdown, llmsAt, markdownAt } from './agent-answers.js';
import { PUBLIC_SPECS_SEGMENT } from '../openapi/public-spec.js';
import { servePublicSpec } from './public-specs.route.js';
import { memberClaims } from './member-visitor.js';
import { pathAndQuery, redirect, sendText } from '../http/node-http.js';
import { pageDocument } from '../content/page-content.js';
import { elsewhereKey, siteElsewhere } from '../content/elsewhere-refs.js';
import { siteFileAnswer, FILES_SEGMENT } from './site-files.js';
import { ASSETS_SEGMENT, sendAsset } from './site-assets.js';
import { siteRefUrls, spaceHrefOn } from './site-links.js';
import { FONTS_SEGMENT, sendFontFile } from './font-files.js';
import { belowSite, integrationSignIn } from './visitor-integration.js';
import { answerPageFeedback, feedbackEnabled, FEEDBACK_SEGMENT } from './page-feedback.js';
import { eventVisitor, queueSiteView } from '../integrations/site-visitor-events.js';

export interface PublishedOptions {
  db: Db;
  urls: Urls;
  /** Where what a page could not show is said (an embed whose page could not be read). */
  log: EmbedLog;
}

/** Where a site is being served in this request. */
interface Place {
  found: FoundSite;
  /** The request's URL from the root of this server (with its query). */
  url: string;
  /** Path of the site's home on this host (no trailing slash; '' at the root of a custom hostname). */
  base: string;
  /** Scheme and host the site's URLs are given with (PUBLISHED_URL's, or `https://<custom hostname>`), for the sitemap. */
  origin: string;
  segments: string[];
  /** The site found again as `found` was (by path or by hostname), as the database has it now. */
  find: () => Promise<FoundSite | undefined>;
}

type Req = IncomingMessage;
type Res = ServerResponse;

/**
 * An HTML answer of the site `site` (undefined: of none). Only a page's 200 read from the page cache (`kept`,
 * which its ETag is kept with) is tagged and may be kept by caches (reader-caching.ts); an error, a sign-in
 * or a search is kept by none.
 */
function sendHtml(req: Req, res: Res, status: number, html: string, site?: SiteRow, indexable = true, scripts: SiteScript[] = [], kept?: object) {
  // Defence in depth beside sanitizing: no inline script runs, whatever the content holds. The policies of
  // the site's integration scripts add the sources they load from (site-scripts.ts).
  // Fonts come from the site's own origin only (font-files.ts), never from a font CDN.
  const base = "default-src 'none'; img-src * data:; style-src 'unsafe-inline'; font-src 'self'; script-src *; form-action 'self'; base-uri 'none'; frame-ancestors 'self'";
  const policy = mergeContentSecurityPolicy(base, scripts.map((s) => s.contentSecurityPolicy));
  res.setHeader('Content-Security-Policy', policy);
  if (!indexable || (site && site.visibility !== 'public')) res.setHeader('X-Robots-Tag', 'noindex');
  if (site && kept && status === 200) {
    setReaderCaching(res, site);
    if (answeredNotModified(req, res, keptEtag(kept, html, policy))) return;
  } else setNotKept(res);
  sendText(req, res, status, 'text/html', html);
}

/** A text the site's readers may cache like its pages (robots.txt, the sitemap), tagged with a hash of its bytes. */
function sendReaderText(req: Req, res: Res, site: SiteRow, type: string, text: string) {
  setReaderCaching(res, site);
  if (answeredNotModified(req, res, etagOf(text))) return;
  sendText(req, res, 200, type, text);
}

/** A text for agents (Markdown, llms.txt), cached like the site's pages and never indexed itself. */
function sendAgentText(req: Req, res: Res, site: SiteRow, type: string, text: string) {
  res.setHeader('X-Robots-Tag', 'noindex');
  sendReaderText(req, res, site, type, text);
}

const notFound = (req: Req, res: Res) => sendHtml(req, res, 404, notFoundHtml(), undefined, false);


/** The reader's access to the site: the visitor, or the answer already sent. */
async function admit(options: PublishedOptions, req: Req, res: Res, place: Place): Promise<{ visitor: Visitor; base: string; segments: string[] } | undefined> {
  const { db } = options;
  const { site } = place.found;
  if (!site.published) return void notFound(req, res);
  const opened = openShareLink(site, place.base, place.segments);
  if (!opened) return void notFound(req, res);
  const { base, segments } = opened;
  const cookiePath = base || '/';
  if (segments.length === 2 && segments[0] === '~auth' && visitorsSignIn(site)) return void (await signInOrOut(options, req, res, place.url, site, base, segments[1]));
  const taken = takeFromQuery(req, place.url, site, cookiePath);
  if (taken) {
    res.setHeader('Set-Cookie', taken.cookies);
    res.setHeader('Cache-Control', 'no-store');
    return void redirect(req, res, taken.location);
  }
  let signed: Record<string, unknown> | undefined;
  if (site.visibility === 'visitor-auth' || site.adaptiveEnabled) {
    signed = (await verifiedClaims(req, site, await visitorKey({ db }, site))) ?? (await memberClaims(db, req, site));
  }
  if (site.visibility === 'visitor-auth' && !signed) {
    if (req.headers.cookie?.includes(`dw_visitor_${site.id}=`)) res.setHeader('Set-Cookie', forgetToken(site, cookiePath));
    // Signed in by an integration: through its fetch_visitor_authentication, back to this page.
    if (site.visitorAuthBackend === 'integration') {
      return void (await integrationSignIn(options, req, res, site, { location: belowSite(place.url, base) }, () => sendHtml(req, res, 401, signInHtml(), site, false)));
    }
    if (site.visitorAuthFallbackUrl) {
      const fallback = new URL(site.visitorAuthFallbackUrl);
      fallback.searchParams.set('location', place.url);
      res.setHeader('Cache-Control', 'no-store');
      return void redirect(req, res, fallback.toString());
    }
    return void sendHtml(req, res, 401, signInHtml(), site, false);
  }
  return { visitor: visitorOf(req, site, signed), base, segments };
}

/**
 * The site's sign-in and sign-out URLs (`urls.login`, `urls.logout`), answered before any token is checked.
 * Sign-in sends the visitor to the fallback URL (the backend that signs their tokens) with the page to come
 * back to; sign-out forgets their token and sends them to the logout URL, so the backend can end its own
 * session too, or to the site's home.
 */
async function signInOrOut(options: PublishedOptions, req: Req, res: Res, url: string, site: SiteRow, base: string, action: string) {
  const home = base || '/';
  res.setHeader('Cache-Control', 'no-store');
  const byIntegration = site.visitorAuthBackend === 'integration';
  if (action === 'logout') {
    res.setHeader('Set-Cookie', forgetToken(site, home));
    // The integration ends the identity provider's session too (fetch_visitor_authentication, `action: logout`).
    if (byIntegration) return integrationSignIn(options, req, res, site, { action: 'logout' }, () => redirect(req, res, site.visitorAuthLogoutUrl ?? home));
    return redirect(req, res, site.visitorAuthLogoutUrl ?? home);
  }
  if (action !== 'login') return notFound(req, res);
  // Only a path of this site is passed on as where to come back to (never `//host…`, which browsers read as
  // another site's address).
  const query = queryOf(url).location;
  const asked = typeof query === 'string' ? query : '';
  const ours = (asked === home || asked.startsWith(`${base}/`)) && !asked.startsWith('//') && !asked.includes('\\');
  const location = ours ? asked : home;
  if (byIntegration) return integrationSignIn(options, req, res, site, { location: belowSite(location, base) }, () => sendHtml(req, res, 401, signInHtml(), site, false));
  if (!site.visitorAuthFallbackUrl) return sendHtml(req, res, 401, signInHtml(), site, false);
  const fallback = new URL(site.visitorAuthFallbackUrl);
  fallback.searchParams.set('location', location);
  return redirect(req, res, fallback.toString());
}

/** Links of the sections and site spaces around the current one. */
function chrome(base: string, nav: Navigation) {
  const sections: Link[] = nav.sections.map((s) => {
    return { title: s.title, href: `${base}/${joinPath(sectionSegment(s))}`, current: s.id === nav.section?.id };
  });
  const variants: Link[] = nav.variants.map((v) => ({
    title: v.space.title,
    href: `${base}/${joinPath(variantPath(nav.section, v))}`,
    current: v.row.id === nav.variant?.row.id,
  }));
  return { sections, variants };
}

async function servePlace(options: PublishedOptions, req: Req, res: Res, place: Place): Promise<void> {
  const { db } = options;
  const admitted = await admit(options, req, res, place);
  if (!admitted) return;
  const { visitor, base, segments } = admitted;
  const { site } = place.found;
  const origin = place.origin;
  // A reader's rating of a page (page-feedback.ts): the one POST a site answers.
  if (req.method === 'POST') {
    if (segments[0] !== FEEDBACK_SEGMENT) return notFound(req, res);
    return answerPageFeedback(req, res, { db, found: place.found, visitor, base, segments: segments.slice(1), origin, notFound: () => notFound(req, res) });
  }

  const agentsIncluded = site.agentsContext !== 'excluded';
  if (segments.length === 1 && segments[0] === 'robots.txt') {
    const robots = robotsTxt({ indexable: site.visibility === 'public', agentsExcluded: !agentsIncluded, sitemapUrl: `${origin}${base}/sitemap.xml` });
    sendReaderText(req, res, site, 'text/plain', robots);
    return;
  }
  // `agentsContext: excluded`: the AI crawlers robots.txt names get nothing else, whether they read it or not.
  if (!agentsIncluded && isAiAgent(req.headers['user-agent'])) {
    res.setHeader('X-Robots-Tag', 'noindex');
    setNotKept(res);
    sendText(req, res, 403, 'text/plain', 'AI agents may not read this site.\n');
    return;
  }
  // The font files the site's pages use (fonts.ts): the same for every reader of every site.
  if (segments.length === 2 && segments[0] === FONTS_SEGMENT) {
    if (!(await sendFontFile(req, res, segments[1]))) notFound(req, res);
    return;
  }
  // The pages' script and KaTeX's style sheet and fonts (site-assets.ts): the same for every site.
  if (segments[0] === ASSETS_SEGMENT) {
    if (!(await sendAsset(req, res, segments.slice(1)))) notFound(req, res);
    return;
  }
  if (agentsIncluded && segments.length === 1 && segments[0] === 'llms.txt') {
    const title = siteCustomization(site).title || site.title;
    const text = await llmsAt(db, site, title, await structureOf(db, place.found), visitor, `${origin}${base}`);
    sendAgentText(req, res, site, 'text/plain', text);
    return;
  }
  if (agentsIncluded && asksMarkdown(segments)) {
    const markdown = await markdownAt(options, site, await structureOf(db, place.found), visitor, segments, { origin, base });
    if (markdown !== undefined) return void sendAgentText(req, res, site, 'text/markdown', markdown);
  }
  if (segments.length === 1 && segments[0] === 'sitemap.xml') {
    const xml = await sitemap(db, site, await structureOf(db, place.found), `${origin}${base}`);
    sendReaderText(req, res, site, 'application/xml', xml);
    return;
  }
  if (segments[0] === '~search') {
    // A search answers from the search index, which a merge updates later, and each query is a URL of its
    // own: never cached, nor tagged (a 304 would still cost the search).
    const answer = await searchAnswer(options, place.url, place.found, visitor, base);
    sendHtml(req, res, answer.status, answer.html, site, false, siteScriptsOf(place.found.scripts, options.urls));
    return;
  }
  const files = segments.indexOf(FILES_SEGMENT);
  if (files >= 0) return fileAnswer(options, req, res, place.found, visitor, segments.slice(0, files), segments.slice(files + 1));
  const key = answerKey({ stamp: place.found.stamp, origin, base, segments, visitor });
  const answer = await cachedAnswer(key, () => pageAnswer(options, place.found, visitor, base, segments, origin));
  // Built again at the site's next change, before its next reader comes (page-prebuild.ts).
  if (req.method === 'GET' && 'status' in answer && answer.status === 200) {
    const build = (found: FoundSite) => pageAnswer(options, found, visitor, base, segments, origin);
    prebuilderOf(db)?.served(site.id, placeOfKey(key, place.found.stamp), { find: place.find, build, origin, base, segments, visitor });
  }
  if ('redirect' in answer) {
    // Cached like the pages: a permanent redirect without Cache-Control is kept by browsers for good, and
    // the site's redirects can be changed.
    setReaderCaching(res, site);
    return void redirect(req, res, answer.redirect, answer.status);
  }
  // Tagged and answered 304 when the reader holds it; the view is still the reader's (site_view below).
  sendHtml(req, res, answer.status, answer.html, site, answer.indexable, [...siteScriptsOf(place.found.scripts, options.urls), ...(answer.scripts ?? [])], answer);
  // `site_view` for the integrations that subscribe to it, written after the answer (site-visitor-events.ts).
  if (answer.view && req.method === 'GET' && place.found.subscribers.length > 0) {
    const view = { siteId: site.id, ...answer.view, visitor: eventVisitor(req, site.id), url: `${origin}${place.url}`, referrer: req.headers.referer ?? '' };
    queueSiteView(db, new Date(), view, place.found.subscribers);
  }
}

/** What every page of the site shows around its content, and where the reader is. */
async function pageFrame(options: PublishedOptions, found: FoundSite, visitor: Visitor, base: string, segments: string[], resolved?: Resolution) {
  const { db, urls } = options;
  const { site } = found;
  const structure = resolved?.structure ?? (await structureOf(db, found));
  const nav = resolved?.nav ?? navigate(site, structure, visitor, segments);
  // A site space's pages show its overrides over the site's customization.
  const customization = nav.variant ? siteSpaceCustomization(site, nav.variant.row) : siteCustomization(site);
  const siteTitle = customization.title || site.title;
  const { sections, variants } = chrome(base, nav);
  // Every reader of a visitor-auth site is signed in, so its pages offer to sign out.
  const signOut = site.visibility === 'visitor-auth' ? `${base}/${signOutPath}` : undefined;
  const spaceHref = spaceHrefOn(structure, visitor, base);
  const baseFrame = { siteTitle, customization, scripts: siteScriptsOf(found.scripts, urls), home: base || '/', fonts: `${base}/${FONTS_SEGMENT}`, assets: `${base}/${ASSETS_SEGMENT}`, sections, variants, searchAction: `${base}/~search`, signOut };
  if (!nav.variant) return { frame: { ...baseFrame, ...customizationLinks(customization, visitor, { structure, spaceHref }) }, structure, nav };
  const variantBase = `${base}/${joinPath(variantPath(nav.section, nav.variant))}`.replace(/\/$/, '');
  const tree = resolved?.variant?.tree ?? (await spaceTree(db, nav.variant.space));
  const readable = resolved?.variant?.readable ?? readablePages(tree, visitor);
  const hrefOf = (p: TreePage) => `${variantBase}/${joinPath(p.path)}`;
  const readableById = new Map(readable.map((p) => [p.page.id, p]));
  const current = { spaceId: nav.variant.space.id, tree, hrefOf: (pageId: string) => (readableById.has(pageId) ? hrefOf(readableById.get(pageId)!) : undefined) };
  const frame = { ...baseFrame, ...customizationLinks(customization, visitor, { structure, spaceHref, current }) };
  // Where the page's references lead on this site: its pages' URLs and its files' stable URLs.
  const siteUrls = siteRefUrls(tree, variantBase);
  const sidebarFor = (currentId?: string): SidebarEntry[] => {
    const hidden = new Set<string>();
    return readable
      .filter(({ page }) => {
        if (page.hidden || (page.parent && hidden.has(page.parent))) {
          hidden.add(page.id);
          return false;
        }
        return true;
      })
      .flatMap((p) => {
        // A link page leads where it points: its URL, or the page (and anchor) it targets when the reader may read it.
        const target = p.page.type === 'link' ? p.page.target : undefined;
        const to = target && target.kind !== 'url' ? readableById.get(target.page) : undefined;
        const href = !target ? hrefOf(p) : target.kind === 'url' ? (/^(?:https?:\/\/|mailto:)/i.test(target.url) ? target.url : undefined) : to && `${hrefOf(to)}${target.kind === 'anchor' ? `#${encodeURIComponent(target.anchor)}` : ''}`;
        // The sidebar shows a page's link title when it has one (GitBook's `linkTitle`), as pagination does.
        return href === undefined ? [] : [{ title: p.page.linkTitle ?? p.page.title, href, depth: p.depth, group: p.page.type === 'group', current: p.page.id === currentId }];
      });
  };
  return { frame, structure, nav, variant: { tree, readable, hrefOf, sidebarFor, siteUrls, variantBase, spaceHref } };
}

/**
 * A file of a site space, at `<site space>/~files/<file id>/<name>`: served to a reader who may read a page
 * of that space referring to it (site-files.ts), under a URL that never expires.
 */
async function fileAnswer(options: PublishedOptions, req: Req, res: Res, found: FoundSite, visitor: Visitor, place: string[], rest: string[]): Promise<void> {
  const nav = navigate(found.site, await structureOf(options.db, found), visitor, place);
  if (!nav.variant || nav.rest.length > 0 || rest.length !== 2) return notFound(req, res);
  const tree = await spaceTree(options.db, nav.variant.space);
  const served = await siteFileAnswer(options.db, req, res, { site: found.site, spaceId: nav.variant.space.id, tree, readable: readablePages(tree, visitor), fileId: rest[0] });
  if (!served) notFound(req, res);
}

/** The 404 of a place with no site space the reader may see (none published there, or none their claims show). */
const noVisibleSpace = '<p>There is no content at this address for you: this part of the site publishes no space you may read.</p>';

/** The answer to a page's URL: the page, a redirect into a group, or the site's 404 page. */
async function pageAnswer(options: PublishedOptions, found: FoundSite, visitor: Visitor, base: string, segments: string[], origin: string): Promise<Answer> {
  // The same resolution as getPublishedContentByUrl's (server/headless/resolve.ts): the site space, the page, or a redirect.
  const resolved = await resolveInSite(options.db, found, visitor, segments);
  if (resolved.redirect) {
    const { location, external, status } = resolved.redirect;
    return { redirect: external ? location : `${base}${location}`, status };
  }
  const { frame, nav, variant } = await pageFrame(options, found, visitor, base, segments, resolved);
  const { site } = found;
  if (!variant) return { status: 404, indexable: false, html: pageHtml({ ...frame, title: 'Page not found', indexable: false, sidebar: [], content: noVisibleSpace }) };
  const { tree, hrefOf, sidebarFor, siteUrls, variantBase, spaceHref } = variant;
  const order = resolved.variant!.order;
  const pagePath = nav.rest.join('/');
  const target = resolved.target;
  if (!target) {
    const content = pagePath === '' ? '<p>This space has no pages.</p>' : '<p>There is no page at this address. The pages of this space are listed beside.</p>';
    return { status: 404, indexable: false, html: pageHtml({ ...frame, title: pagePath === '' ? frame.siteTitle : 'Page not found', indexable: false, sidebar: sidebarFor(), content }) };
  }
  const at = order.findIndex((p) => p.page.id === target!.page.id);
  const previous = at > 0 ? order[at - 1] : undefined;
  const next = at >= 0 && at < order.length - 1 ? order[at + 1] : undefined;
  const indexable = site.visibility === 'public' && pageIndexable(target.page);
  const editLink = frame.customization.git?.showEditLink ? await editLinkOf(options.db, nav.variant!.space.id, target.page.id) : undefined;
  // The spaces and users the page refers to, as this site shows them (no query when it names none).
  const document = pageDocument(target.page);
  const elsewhere = await siteElsewhere(options, site.organizationId, document.nodes, spaceHref);
  const cacheKey = `${tree.revisionId}\u0000${variantBase}\u0000${target.page.id}${elsewhere ? `\u0000${elsewhereKey(elsewhere)}` : ''}`;
  // Its `integration` blocks, rendered by their integrations (integration-blocks.ts); webframes add a script and a frame-src.
  const page = await renderWithIntegrationBlocks(options.db, nav.variant!.space.id, document, (doc) => renderDocumentPage(cacheKey, doc, tree.refs.siteRefs(target.page, siteUrls, elsewhere), options.log));
  const extraScripts = webframeScripts(page.frameOrigins, options.urls);
  const html = pageHtml({
    ...frame,
    ...(feedbackEnabled(frame.customization) && { feedbackAction: `${base}/${joinPath(FEEDBACK_SEGMENT, ...segments)}` }),
    scripts: [...frame.scripts, ...extraScripts],
    title: target.page.title,
    showTitle: !opensWithTitle(target.page),
    canonical: `${origin}${hrefOf(target)}`,
    description: target.page.description,
    indexable,
    sidebar: sidebarFor(target.page.id),
    content: page.html,
    outline: page.outline,
    ...(previous && { previous: { title: previous.page.linkTitle ?? previous.page.title, href: hrefOf(previous) } }),
    ...(next && { next: { title: next.page.linkTitle ?? next.page.title, href: hrefOf(next) } }),
    ...(editLink && { editLink }),
  });
  const view = { siteSpaceId: nav.variant!.row.id, spaceId: nav.variant!.space.id, pageId: target.page.id };
  return { status: 200, indexable, html, view, ...(extraScripts.length > 0 && { scripts: extraScripts }) };
}

/** The results page of `…/~search?q=`, in the site space the reader is in (the first one, from the search box). */
async function searchAnswer(options: PublishedOptions, url: string, found: FoundSite, visitor: Visitor, base: string): Promise<{ status: number; html: string }> {
  const { frame, structure, nav, variant } = await pageFrame(options, found, visitor, base, []);
  if (!variant) return { status: 404, html: pageHtml({ ...frame, title: 'Page not found', indexable: false, sidebar: [], content: noVisibleSpace }) };
  const q = queryOf(url).q;
  const query = typeof q === 'string' ? q.slice(0, 200) : '';
  const content = await searchPage(options.db, structure, nav, visitor, query, (siteSpaceId, path) => {
    const entry = structure.siteSpaces.find((e) => e.row.id === siteSpaceId)!;
    const section = structure.items.find((i) => i.id === entry.row.sectionId);
    return `${base}/${joinPath(variantPath(section, entry), path)}`;
  });
  return { status: 200, html: pageHtml({ ...frame, title: 'Search', indexable: false, sidebar: variant.sidebarFor(), content, query }) };
}

/** The sitemap of a public site: every page an anonymous reader may see and search engines may index. */
async function sitemap(db: Db, site: SiteRow, structure: SiteStructure, absoluteBase: string): Promise<string> {
  const urls: string[] = [];
  if (site.visibility === 'public') {
    const anonymous: Visitor = { claims: {} };
    for (const place of placesOf(site, structure, anonymous)) {
      for (const variant of place.variants) {
        const tree = await spaceTree(db, variant.space);
        const variantBase = `${absoluteBase}/${joinPath(variantPath(place.section, variant))}`.replace(/\/$/, '');
        for (const p of readingOrder(readablePages(tree, anonymous))) {
          if (pageIndexable(p.page)) urls.push(`${variantBase}/${joinPath(p.path)}`);
        }
      }
    }
  }
  return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls
    .map((u) => `<url><loc>${escapeHtml(u)}</loc></url>`)
    .join('\n')}\n</urlset>\n`;
}

/** The query of a URL as Express parsed it (`querystring`: a repeated key gives an array). */
const queryOf = (url: string) => parseQuery(pathAndQuery(url).query);

export { sitePath, type SitePath } from '../headless/site-path.js';

/** Answers the place of a site addressed by path; `mount` is PUBLISHED_URL's path as the request spelt it, `url` the request's from the root. */
export async function serveSitePath(options: PublishedOptions, req: Req, res: Res, at: SitePath | null, mount: string, url: string): Promise<void> {
  if (!at) return notFound(req, res);
  if (at.org === PUBLIC_SPECS_SEGMENT) return servePublicSpec(options.db, options.urls, req, res, at.site, at.segments);
  const find = () => findSiteByPath(options.db, at.org, at.site);
  const found = await find();
  if (!found) return notFound(req, res);
  const base = `${mount}/${encodeURIComponent(at.org)}/${encodeURIComponent(at.site)}`;
  await servePlace(options, req, res, { found, find, url, base, origin: new URL(options.urls.published('')).origin, segments: at.segments });
}

/**
 * The sites under PUBLISHED_URL, as Express middleware to mount at its path: for the requests the server
 * does not send past Express (server/app.ts serves the common ones itself, with the same functions).
 */
export function publishedSitesRouter(options: PublishedOptions): RequestHandler {
  return (req, res, next) => {
    const at = req.method === 'GET' || req.method === 'HEAD' || req.method === 'POST' ? sitePath(req.path) : undefined;
    if (at === undefined) return next();
    serveSitePath(options, req, res, at, req.baseUrl, req.originalUrl).catch(next);
  };
}

/** The hostname of a Host header, lower-cased and without its port (Express's `req.hostname`, without `trust proxy`). */
export function hostnameOf(host: string | undefined): string | undefined {
  if (!host) return undefined;
  const end = host.startsWith('[') ? host.indexOf(']') + 1 : host.indexOf(':');
  return (end > 0 ? host.slice(0, end) : host).toLowerCase();
}

/** Whether a request's host may be a site's custom hostname: a name a site may have, and none of this server's own. */
export function mayBeCustomHostname(ownHosts: string[]): (host: string | undefined) => boolean {
  const own = new Set(ownHosts.map((h) => h.toLowerCase()));
  return (host) => host !== undefined && !own.has(host) && siteHostnamePattern.test(host);
}

/**
 * Requests whose Host is a site's custom hostname: the site, from `/`. Other hosts (the API's own) pass
 * through; `/v1` is never a site's.
 */
export function customHostnameSites(options: PublishedOptions, ownHosts: string[]): RequestHandler {
  const candidate = mayBeCustomHostname(ownHosts);
  return (req, res, next) => {
    const host = hostnameOf(requestHost(req));
    // Only a name a site may have (three labels or more) costs a query: IPs and the API's hosts never do.
    if (!candidate(host) || (req.method !== 'GET' && req.method !== 'POST') || req.path.startsWith('/v1/') || req.path === '/v1') return next();
    const find = () => findSiteByHost(options.db, host!);
    find()
      .then(async (found) => {
        if (!found) return next();
        let segments: string[];
        try {
          segments = req.path.split('/').filter(Boolean).map((s) => decodeURIComponent(s));
        } catch {
          return notFound(req, res); // a malformed escape leads nowhere
        }
        await servePlace(options, req, res, { found, find, url: req.originalUrl, base: '', origin: `https://${host}`, segments });
      })
      .catch(next);
  };
}
