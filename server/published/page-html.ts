// The HTML of a published site: one server-rendered document per page, a small inline style sheet
// coloured by the site's customization, no client-side framework. Everything interpolated is escaped;
// page content arrives already sanitized (render-markdown.ts).
import type { SiteCustomization } from '../sites/customization.js';
import type { SiteScript } from '../sites/site-scripts.js';
import { fontFaces, monospaceFontStack, textFontStack } from './fonts.js';

/** Text (or an attribute value) escaped for HTML. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

const HEX = /^#[0-9a-fA-F]{3}([0-9a-fA-F]{3})?$/;
const color = (value: string | undefined, fallback: string) => (value && HEX.test(value) ? value : fallback);
const httpUrl = (value: string | undefined) => (value && /^https?:\/\//i.test(value) ? value : undefined);

function styleSheet(custom: SiteCustomization, fontsUrl: string): string {
  const primary = custom.styling?.primaryColor;
  const tint = custom.styling?.tint?.color;
  const light = `--primary:${color(primary?.light, '#346DDB')};--tint:${color(tint?.light, '#346DDB')};--fg:#1d1d1f;--muted:#5f6368;--bg:#fff;--line:#e3e5e8;--code:#f5f6f8`;
  const dark = `--primary:${color(primary?.dark, '#346DDB')};--tint:${color(tint?.dark, '#346DDB')};--fg:#e8eaed;--muted:#9aa0a6;--bg:#16171a;--line:#2c2e33;--code:#202226`;
  // themes.default is the theme shown; with themes.toggeable the reader's own preference (their system's
  // light or dark mode) wins over it.
  const initial = custom.themes?.default === 'dark' ? dark : light;
  const byPreference = custom.themes?.toggeable === false ? '' : `@media (prefers-color-scheme:dark){:root{${dark}}}@media (prefers-color-scheme:light){:root{${light}}}\n`;
  // The site's fonts: files this server serves (font-files.ts), then system fonts of the same kind (fonts.ts).
  const fonts = `--font:${textFontStack(custom.styling?.font)};--mono:${monospaceFontStack(custom.styling?.monospaceFont)}`;
  return `${fontFaces(custom.styling?.font, custom.styling?.monospaceFont, fontsUrl)}
:root{${initial};${fonts}}
${byPreference}*{box-sizing:border-box}body{margin:0;font:16px/1.6 var(--font);color:var(--fg);background:var(--bg)}
a{color:var(--primary)}header.top{display:flex;gap:1.5rem;align-items:center;padding:.75rem 1.5rem;border-bottom:1px solid var(--line);border-top:3px solid var(--tint)}
.brand{font-weight:600;color:var(--fg);text-decoration:none;display:flex;gap:.5rem;align-items:center}.brand img{height:28px}
nav.sections a{margin-right:1rem;color:var(--muted);text-decoration:none}nav.sections a[aria-current]{color:var(--primary);font-weight:600}
form.search{margin-left:auto}.signout{color:var(--muted);font-size:.9rem}form.search input{padding:.35rem .6rem;border:1px solid var(--line);border-radius:6px;background:var(--bg);color:var(--fg)}
.layout{display:flex;max-width:1200px;margin:0 auto}.layout>aside{width:260px;flex:none;padding:1.5rem 1rem;border-right:1px solid var(--line)}
.layout>aside ul{list-style:none;margin:0;padding:0}.layout>aside li a{display:block;padding:.2rem .5rem;border-radius:4px;color:var(--fg);text-decoration:none}
.layout>aside li a[aria-current]{background:var(--code);color:var(--primary);font-weight:600}.layout>aside .group{margin-top:1rem;font-size:.8rem;text-transform:uppercase;color:var(--muted)}
.variants{margin-bottom:1rem}.variants a{display:inline-block;margin:0 .4rem .4rem 0;padding:.1rem .5rem;border:1px solid var(--line);border-radius:999px;font-size:.85rem;text-decoration:none}
.variants a[aria-current]{border-color:var(--primary)}main{flex:1;min-width:0;padding:1.5rem 2.5rem}
h1,h2,h3,h4{line-height:1.25}.anchor{margin-left:.4rem;opacity:0;text-decoration:none}h2:hover .anchor,h3:hover .anchor,h1:hover .anchor{opacity:1}
.description{color:var(--muted);font-size:1.1rem}pre{background:var(--code);padding:1rem;border-radius:6px;overflow:auto}code{font-family:var(--mono);font-size:.9em}
table{border-collapse:collapse}th,td{border:1px solid var(--line);padding:.4rem .7rem}blockquote{margin:0;padding-left:1rem;border-left:3px solid var(--line);color:var(--muted)}
nav.pager{display:flex;justify-content:space-between;margin-top:3rem;padding-top:1rem;border-top:1px solid var(--line)}nav.pager a{text-decoration:none}
footer{padding:2rem 1.5rem;color:var(--muted);font-size:.85rem;text-align:center}.results li{margin-bottom:1rem}
.hint{margin:1rem 0;padding:.75rem 1rem;border-left:4px solid var(--hint);border-radius:6px;background:color-mix(in srgb,var(--hint) 10%,transparent)}.hint>:first-child{margin-top:0}.hint>:last-child{margin-bottom:0}
.hint-info{--hint:#346DDB}.hint-success{--hint:#1E8E3E}.hint-warning{--hint:#E8A317}.hint-danger{--hint:#D93025}
.announcement{padding:.5rem 1.5rem;text-align:center;background:color-mix(in srgb,var(--ann) 14%,var(--bg));border-bottom:1px solid var(--ann);--ann:var(--primary)}
.announcement-warning{--ann:#E8A317}.announcement-danger{--ann:#D93025}.announcement-success{--ann:#1E8E3E}.announcement a{margin-left:.5rem;font-weight:600}
nav.links a{margin-right:1rem;color:var(--fg);text-decoration:none}nav.links a.button{padding:.25rem .75rem;border-radius:6px;background:var(--primary);color:var(--bg)}
footer .groups{display:flex;gap:3rem;justify-content:center;margin-bottom:1rem;text-align:left}footer .groups ul{list-style:none;padding:0;margin:.25rem 0}footer .groups a{color:var(--muted)}
@media (max-width:800px){.layout{display:block}.layout>aside{width:auto;border-right:0;border-bottom:1px solid var(--line)}main{padding:1rem}}`;
}

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
  title: string;
  description?: string;
  indexable: boolean;
  sections: Link[];
  variants: Link[];
  sidebar: SidebarEntry[];
  /** Sanitized HTML of the page. */
  content: string;
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

/** The whole HTML document of a page of a published site. */
export function pageHtml(view: PageView): string {
  const custom = view.customization;
  const logo = httpUrl(custom.header?.logo?.light);
  const favicon = httpUrl(custom.favicon && 'icon' in custom.favicon ? custom.favicon.icon.light : undefined);
  const brand = logo ? `<img src="${escapeHtml(logo)}" alt="">${escapeHtml(view.siteTitle)}` : escapeHtml(view.siteTitle);
  const link = (l: Link | undefined, label: string, rel: string) =>
    l ? `<a href="${escapeHtml(l.href)}" rel="${rel}">${label} ${escapeHtml(l.title)}</a>` : '<span></span>';
  const pageTitle = view.title === view.siteTitle ? view.title : `${view.title} | ${view.siteTitle}`;
  const social = httpUrl(custom.socialPreview?.url);
  const themeScheme = custom.themes?.toggeable === false ? (custom.themes?.default === 'dark' ? 'dark' : 'light') : 'light dark';
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
  const pager = custom.pagination?.enabled === false ? '' : `<nav class="pager" aria-label="Previous and next">${link(view.previous, '←', 'prev')}${link(view.next, '→', 'next')}</nav>`;
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><meta name="color-scheme" content="${themeScheme}">
<title>${escapeHtml(pageTitle)}</title>
${view.description ? `<meta name="description" content="${escapeHtml(view.description)}">\n` : ''}${view.indexable ? '' : '<meta name="robots" content="noindex">\n'}${favicon ? `<link rel="icon" href="${escapeHtml(favicon)}">\n` : ''}<meta property="og:title" content="${escapeHtml(pageTitle)}">
${view.description ? `<meta property="og:description" content="${escapeHtml(view.description)}">\n` : ''}${view.canonical ? `<meta property="og:url" content="${escapeHtml(view.canonical)}">\n` : ''}${social ? `<meta property="og:image" content="${escapeHtml(social)}"><meta name="twitter:card" content="summary_large_image">\n` : ''}<style>${styleSheet(custom, view.fonts)}</style>
${view.scripts.map((s) => `<script src="${escapeHtml(s.script)}" defer></script>`).join('\n')}</head>
<body>${announcement}<header class="top"><a class="brand" href="${escapeHtml(view.home)}">${brand}</a>
<nav class="sections" aria-label="Sections">${view.sections.map((s) => `<a href="${escapeHtml(s.href)}"${current(s)}>${escapeHtml(s.title)}</a>`).join('')}</nav>
${headerLinks}${view.searchAction ? `<form class="search" role="search" action="${escapeHtml(view.searchAction)}"><input type="search" name="q" placeholder="Search" aria-label="Search" value="${escapeHtml(view.query ?? '')}"></form>` : ''}${view.signOut ? `<a class="signout" href="${escapeHtml(view.signOut)}">Sign out</a>` : ''}</header>
<div class="layout"><aside><nav aria-label="Pages">${view.variants.length > 1 ? `<div class="variants">${view.variants.map((v) => `<a href="${escapeHtml(v.href)}"${current(v)}>${escapeHtml(v.title)}</a>`).join('')}</div>` : ''}<ul>${sidebarHtml(view.sidebar)}</ul></nav></aside>
<main><article>${articleHead(view)}</article>
${view.editLink ? `<p class="edit-link"><a href="${escapeHtml(view.editLink.href)}" rel="noopener">${escapeHtml(view.editLink.title)}</a></p>\n` : ''}${pager}</main></div>
<footer>${footerGroups}${escapeHtml(custom.footer?.copyright ?? view.siteTitle)}</footer></body></html>`;
}

/** The page of a URL that leads nowhere: the same for an unknown site, an unpublished one or a wrong key. */
export function notFoundHtml(): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="robots" content="noindex"><title>Page not found</title>
<style>body{font:16px/1.6 system-ui,sans-serif;max-width:40rem;margin:4rem auto;padding:0 1rem;color:#1d1d1f}</style></head>
<body><h1>Page not found</h1><p>There is nothing at this address.</p></body></html>`;
}

/** The page a visitor-auth site shows without a valid visitor token and with no fallback URL. */
export function signInHtml(): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="robots" content="noindex"><title>Sign-in required</title>
<style>body{font:16px/1.6 system-ui,sans-serif;max-width:40rem;margin:4rem auto;padding:0 1rem;color:#1d1d1f}</style></head>
<body><h1>Sign-in required</h1><p>This documentation is for signed-in readers. Open it through the link your sign-in gave you.</p></body></html>`;
}
