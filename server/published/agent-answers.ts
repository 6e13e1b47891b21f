// The answers a published site gives AI agents when its `agentsContext` lets them in (agents.ts): a page's
// Markdown at `<page URL>.md` and the site's `llms.txt`, both holding only what the reader may read (the same
// navigation, conditions and page tree as the HTML pages).
import { pageDocument, pageMarkdown as storedPageMarkdown } from '../content/page-content.js';
import { elsewhereKey, siteElsewhere } from '../content/elsewhere-refs.js';
import type { Urls } from '../urls.js';
import type { Db } from '../db/client.js';
import type { Visitor } from '../conditions/evaluate.js';
import type { SiteRow } from '../sites/site-view.js';
import { agentMarkdown, llmsTxt, type LlmsSection } from './agents.js';
import { joinPath, navigate, placesOf, readablePages, readingOrder, variantPath } from './navigation.js';
import { spaceTree, type SiteStructure } from './site-data.js';
import { siteRefUrls, spaceHrefOn } from './site-links.js';

/** Whether the last segment of a path asks for a page's Markdown (`….md`). */
export function asksMarkdown(segments: string[]): boolean {
  const last = segments.at(-1);
  return last !== undefined && last.length > 3 && last.endsWith('.md');
}

/**
 * The Markdown of the page whose URL is `segments` without `.md`; undefined when the reader may read no page
 * there. Its references are written for this site, as its HTML page writes them (site-links.ts), with the
 * site's origin so an agent can follow them: a page as its `.md` URL (a group or a link page as its URL), a
 * file as the site's stable file URL, a space as its URL as the site renders it, a user as their name. What
 * resolves to nothing is its text. The `markdown` format of the API (relative paths, as Git Sync writes
 * them) is another text, cached under another key.
 */
export async function markdownAt(
  options: { db: Db; urls: Urls },
  site: SiteRow,
  structure: SiteStructure,
  visitor: Visitor,
  segments: string[],
  at: { origin: string; base: string },
): Promise<string | undefined> {
  const last = segments.at(-1)!;
  const nav = navigate(site, structure, visitor, [...segments.slice(0, -1), last.slice(0, -3)]);
  if (!nav.variant) return undefined;
  const tree = await spaceTree(options.db, nav.variant.space);
  const readable = readablePages(tree, visitor);
  const path = nav.rest.join('/');
  const target = path === '' ? readingOrder(readable)[0] : readable.find((p) => p.path === path);
  if (!target || target.page.type !== 'document') return undefined;
  const variantBase = `${at.origin}${at.base}/${joinPath(variantPath(nav.section, nav.variant))}`.replace(/\/$/, '');
  const urls = siteRefUrls(tree, variantBase, (page) => (page.type === 'document' ? '.md' : ''));
  const elsewhere = await siteElsewhere(options, site.organizationId, pageDocument(target.page).nodes, (spaceId) => {
    const href = spaceHrefOn(structure, visitor, at.base)(spaceId);
    return href === undefined ? undefined : `${at.origin}${href}`;
  });
  // Never the API's key (`<revision>\0<page>`): this text holds the site's URLs and what the reader is shown.
  const key = `site-md\u0000${tree.revisionId}\u0000${variantBase}\u0000${target.page.id}${elsewhere ? `\u0000${elsewhereKey(elsewhere)}` : ''}`;
  return agentMarkdown(target.page, storedPageMarkdown(target.page, tree.refs.siteRefs(target.page, urls, elsewhere), key));
}

/** The llms.txt of the site for this reader: every section and site space they see, their pages (not hidden, not `noIndex`). */
export async function llmsAt(db: Db, site: SiteRow, title: string, structure: SiteStructure, visitor: Visitor, absoluteBase: string): Promise<string> {
  const places = placesOf(site, structure, visitor);
  const out: LlmsSection[] = [];
  for (const place of places) {
    for (const variant of place.variants) {
      const tree = await spaceTree(db, variant.space);
      const heading = [place.section?.title, place.variants.length > 1 || !place.section ? variant.space.title : undefined].filter(Boolean).join(' — ');
      const pages = readingOrder(readablePages(tree, visitor))
        .filter((p) => !p.page.noIndex)
        .map((p) => ({
          title: p.page.title,
          url: `${absoluteBase}/${joinPath(variantPath(place.section, variant), p.path)}.md`,
          description: p.page.description,
        }));
      out.push({ title: heading || variant.space.title, pages });
    }
  }
  return llmsTxt(title, out);
}
