// The HTML of a published site: one server-rendered document per page, an inline style sheet coloured by
// the site's customization (site-css.ts), one small client script (site-script.ts), no client-side
// framework. Landmarks: a skip link, the header (banner) with the site's sections, links, search and theme
// switch, the pages (navigation), the content (main), "on this page" (navigation, from the page's headings)
// and the footer (contentinfo). Everything interpolated is escaped; page content arrives already sanitized
// (render-markdown.ts).
import type { SiteCustomization } from '../sites/customization.js';
import type { SiteScript } from '../sites/site-scripts.js';
import { KATEX_CSS_FILE, SCRIPT_FILE } from './site-assets.js';
import { siteStyleSheet } from './site-css.js';

/** Text (or an attribute value) escaped for HTML. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

const httpUrl = (value: string | undefined) => (value && /^https?:\/\//i.test(value) ? value : undefined);

export interface Link {
  title: string;
  href: string;
  current?: boolean;
}

export interface SidebarEntry extends Link {
  depth: number;
  group: boolean;
}

export interface PageView {
  siteTitle: string;
  customization: SiteCustomization;
  scripts: SiteScript[];
  /** The site's home (its base path). */
  home: string;
  /** Where the site serves its font files (`<site URL>/~fonts`, font-files.ts). */
  fonts: string;
  /** Where the site serves its script and KaTeX's style sheet (`<site URL>/~assets`, site-assets.ts). */
  assets: string;
  title: string;
  description?: string;
  indexable: boolean;
  sections: Link[];
  variants: Link[];
  sidebar: SidebarEntry[];
  /** Sanitized HTML of the page. */
  content: string;
  /** The page's headings (levels 2 and 3) for "on this page". */
  outline?: { id: string; title: string; depth: number }[];
  previous?: Link;
  next?: Link;
  searchAction?: string;
  query?: string;
  /** The site's sign-out URL, linked from the header (visitor-auth sites). */
  signOut?: string;
  /** The header links of the customization the reader may see, resolved to URLs (links.ts). */
  headerLinks?: (Link & { style?: string })[];
  /** The footer groups of the customization, their links resolved. */
  footerGroups?: { title: string; links: Link[] }[];
  /** The announcement's link, resolved. */
  announcementLink?: Link;
  /** False when the page's content opens with its own title as a heading: the title is not shown twice. */
  showTitle?: boolean;
  /** The page's absolute URL, for the social preview (Open Graph). */
  canonical?: string;
  /** "Edit on GitHub" and where: the page's file in the space's Git repository (customization `git.showEditLink`). */
  editLink?: Link;
  /** Where the page's rating form posts (customization `feedback.enabled`, page-feedback.ts). */
  feedbackAction?: string;
}

const current = (link: Link) => (link.current ? ' aria-current="page"' : '');

function sidebarHtml(entries: SidebarEntry[]): string {
  return entries
    .map((e) =>
      e.group
        ? `<li class="group" style="margin-left:${e.depth}rem">${escapeHtml(e.title)}</li>`
        : `<li style="margin-left:${e.depth}rem"><a href="${escapeHtml(e.href)}"${current(e)}>${escapeHtml(e.title)}</a></li>`,
    )
    .join('');
}

/**
 * The title, the description and the content. When the content opens with the title as its own heading, that
 * heading is the page's title (shown once), and the description follows it.
 */
function articleHead(view: PageView): string {
  const description = view.description ? `<p class="description">${escapeHtml(view.description)}</p>` : '';
  if (view.showTitle !== false) return `<h1>${escapeHtml(view.title)}</h1>${description}\n${view.content}`;
  const end = view.content.indexOf('</h1>');
  return end < 0 ? `${description}\n${view.content}` : `${view.content.slice(0, end + 5)}${description}${view.content.slice(end + 5)}`;
}

function outlineHtml(outline: PageView['outline']): string {
  if (!outline || outline.length < 2) return '';
  const items = outline.map((h) => `<li class="depth-${h.depth}"><a href="#${escapeHtml(encodeURIComponent(h.id))}">${escapeHtml(h.title)}</a></li>`).join('');
  return `<aside class="outline" aria-label="Outline"><nav aria-labelledby="outline-title"><h2 id="outline-title">On this page</h2><ul>${items}</ul></nav></aside>`;
}

function pagerHtml(view: PageView): string {
  if (view.customization.pagination?.enabled === false || (!view.previous && !view.next)) return '';
  // The left and right arrow keys follow these links (site-script.ts).
  const link = (l: Link | undefined, arrow: string, rel: string) => (l ? `<a href="${escapeHtml(l.href)}" rel="${rel}">${arrow} ${escapeHtml(l.title)}</a>` : '');
  return `<nav class="pager" aria-label="Previous and next (arrow keys)">${link(view.previous, '←', 'prev')}${link(view.next, '→', 'next')}</nav>`;
}

/**
 * "Was this page helpful?": three buttons and an optional comment, posted to the page's feedback URL (a plain
 * form: no script, and the page's policy allows `form-action 'self'`).
 */
function feedbackHtml(view: PageView): string {
  if (!view.feedbackAction) return '';
  const button = (rating: string, label: string) => `<button type="submit" name="rating" value="${rating}">${label}</button>`;
  return `<form class="feedback" method="post" action="${escapeHtml(view.feedbackAction)}" aria-labelledby="feedback-title"><p id="feedback-title">Was this page helpful?</p>${button('good', 'Yes')}${button('ok', 'Somewhat')}${button('bad', 'No')}<label>Comment (optional) <textarea name="comment" maxlength="512" rows="2"></textarea></label></form>`;
}

/** The site's logo (its dark variant shown on the dark theme) or its title. */
function brandHtml(view: PageView): string {
  const light = httpUrl(view.customization.header?.logo?.light);
  const dark = httpUrl(view.customization.header?.logo?.dark);
  if (!light && !dark) return escapeHtml(view.siteTitle);
  const img = (src: string, cls: string) => `<img class="${cls}" src="${escapeHtml(src)}" alt="">`;
  return `${light && dark ? `${img(light, 'logo-light')}${img(dark, 'logo-dark')}` : img((light ?? dark)!, 'logo')}${escapeHtml(view.siteTitle)}`;
}

/** The whole HTML document of a page of a published site. */
export function pageHtml(view: PageView): string {
  const custom = view.customization;
  // A favicon is an image (light and dark) or an emoji; the emoji has no URL to link.
  const icon = custom.favicon && 'icon' in custom.favicon ? custom.favicon.icon : undefined;
  const favicon = httpUrl(icon?.light);
  const faviconDark = httpUrl(icon?.dark);
  const pageTitle = view.title === view.siteTitle ? view.title : `${view.title} | ${view.siteTitle}`;
  const social = httpUrl(custom.socialPreview?.url);
  const toggeable = custom.themes?.toggeable !== false;
  const themeScheme = toggeable ? 'light dark' : custom.themes?.default === 'dark' ? 'dark' : 'light';
  const headerLinks = view.headerLinks?.length
    ? `<nav class="links" aria-label="Links">${view.headerLinks.map((l) => `<a href="${escapeHtml(l.href)}"${l.style === 'button-primary' || l.style === 'button-secondary' ? ' class="button"' : ''}>${escapeHtml(l.title)}</a>`).join('')}</nav>`
    : '';
  const announcement = custom.announcement?.enabled && custom.announcement.message
    ? `<div class="announcement announcement-${escapeHtml(custom.announcement.style ?? 'info')}" role="note">${escapeHtml(custom.announcement.message)}${
        view.announcementLink ? `<a href="${escapeHtml(view.announcementLink.href)}">${escapeHtml(view.announcementLink.title)}</a>` : ''
      }</div>`
    : '';
  const footerGroups = view.footerGroups?.length
    ? `<div class="groups">${view.footerGroups.map((g) => `<div><strong>${escapeHtml(g.title)}</strong><ul>${g.links.map((l) => `<li><a href="${escapeHtml(l.href)}">${escapeHtml(l.title)}</a></li>`).join('')}</ul></div>`).join('')}</div>`
    : '';
  const search = view.searchAction
    ? `<form class="search" role="search" action="${escapeHtml(view.searchAction)}"><input id="site-search" type="search" name="q" placeholder="Search" aria-label="Search" aria-keyshortcuts="/ Control+K" autocomplete="off" value="${escapeHtml(view.query ?? '')}"><kbd aria-hidden="true">/</kbd></form>`
    : '';
  const themeToggle = toggeable ? '<button type="button" id="theme-toggle" class="theme-toggle" aria-label="Dark theme" aria-pressed="false">◐</button>' : '';
  const math = view.content.includes('class="katex') ? `<link rel="stylesheet" href="${escapeHtml(`${view.assets}/${KATEX_CSS_FILE}`)}">\n` : '';
  const icons = favicon && faviconDark
    ? `<link rel="icon" href="${escapeHtml(favicon)}" media="(prefers-color-scheme: light)"><link rel="icon" href="${escapeHtml(faviconDark)}" media="(prefers-color-scheme: dark)">\n`
    : favicon || faviconDark ? `<link rel="icon" href="${escapeHtml((favicon ?? faviconDark)!)}">\n` : '';
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><meta name="color-scheme" content="${themeScheme}">
<title>${escapeHtml(pageTitle)}</title>
${view.description ? `<meta name="description" content="${escapeHtml(view.description)}">\n` : ''}${view.indexable ? '' : '<meta name="robots" content="noindex">\n'}${icons}<meta property="og:title" content="${escapeHtml(pageTitle)}">
${view.description ? `<meta property="og:description" content="${escapeHtml(view.description)}">\n` : ''}${view.canonical ? `<meta property="og:url" content="${escapeHtml(view.canonical)}">\n` : ''}${social ? `<meta property="og:image" content="${escapeHtml(social)}"><meta name="twitter:card" content="summary_large_image">\n` : ''}<style>${siteStyleSheet(custom, view.fonts)}</style>
${math}<script src="${escapeHtml(`${view.assets}/${SCRIPT_FILE}`)}"></script>
${view.scripts.map((s) => `<script src="${escapeHtml(s.script)}" defer></script>`).join('\n')}</head>
<body><a class="skip-link" href="#content">Skip to content</a>${announcement}<header class="top"><a class="brand" href="${escapeHtml(view.home)}">${brandHtml(view)}</a>
<nav class="sections" aria-label="Sections">${view.sections.map((s) => `<a href="${escapeHtml(s.href)}"${current(s)}>${escapeHtml(s.title)}</a>`).join('')}</nav>
${headerLinks}<div class="tools">${search}${themeToggle}${view.signOut ? `<a class="signout" href="${escapeHtml(view.signOut)}">Sign out</a>` : ''}</div></header>
<div class="layout"><aside class="sidebar" aria-label="Site navigation"><nav aria-label="Pages">${view.variants.length > 1 ? `<div class="variants">${view.variants.map((v) => `<a href="${escapeHtml(v.href)}"${current(v)}>${escapeHtml(v.title)}</a>`).join('')}</div>` : ''}<ul>${sidebarHtml(view.sidebar)}</ul></nav></aside>
<main id="content" tabindex="-1"><article>${articleHead(view)}</article>
${view.editLink ? `<p class="edit-link"><a href="${escapeHtml(view.editLink.href)}" rel="noopener">${escapeHtml(view.editLink.title)}</a></p>\n` : ''}${feedbackHtml(view)}${pagerHtml(view)}</main>${outlineHtml(view.outline)}</div>
<footer>${footerGroups}${escapeHtml(custom.footer?.copyright ?? view.siteTitle)}</footer></body></html>`;
}

/** The page of a URL that leads nowhere: the same for an unknown site, an unpublished one or a wrong key. */
export function notFoundHtml(): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="robots" content="noindex"><title>Page not found</title>
<meta name="color-scheme" content="light dark"><style>body{font:16px/1.6 system-ui,sans-serif;max-width:40rem;margin:4rem auto;padding:0 1rem;color:#1d1d1f;background:#fff}
@media (prefers-color-scheme:dark){body{color:#e8eaed;background:#16171a}}</style></head>
<body><main><h1>Page not found</h1><p>There is nothing at this address.</p></main></body></html>`;
}

/** The page a visitor-auth site shows without a valid visitor token and with no fallback URL. */
export function signInHtml(): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="robots" content="noindex"><title>Sign-in required</title>
<style>body{font:16px/1.6 system-ui,sans-serif;max-width:40rem;margin:4rem auto;padding:0 1rem;color:#1d1d1f}</style></head>
<body><main><h1>Sign-in required</h1><p>This documentation is for signed-in readers. Open it through the link your sign-in gave you.</p></main></body></html>`;
}

/** The answer to a reader's rating of a page: thanks, and the way back to the page. */
export function feedbackThanksHtml(pageTitle: string, pageHref: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="robots" content="noindex"><title>Thank you</title>
<meta name="color-scheme" content="light dark"><style>body{font:16px/1.6 system-ui,sans-serif;max-width:40rem;margin:4rem auto;padding:0 1rem}</style></head>
<body><main><h1>Thank you for your feedback</h1><p><a href="${escapeHtml(pageHref)}">Back to ${escapeHtml(pageTitle)}</a></p></main></body></html>`;
}
