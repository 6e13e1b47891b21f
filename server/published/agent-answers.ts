// The answers a published site gives AI agents when its `agentsContext` lets them in (agents.ts): a page's
// Markdown at `<page URL>.md` and the site's `llms.txt`, both holding only what the reader may read (the same
// navigation, conditions and page tree as the HTML pages).
import { pageMarkdown as storedPageMarkdown } from '../content/page-content.js';
import type { Db } from '../db/client.js';
import type { Visitor } from '../conditions/evaluate.js';
import type { SiteRow } from '../sites/site-view.js';
import { llmsTxt, pageMarkdown, type LlmsSection } from './agents.js';
import { joinPath, navigate, placesOf, readablePages, readingOrder, variantPath } from './navigation.js';
import { spaceTree, type SiteStructure } from './site-data.js';

/** Whether the last segment of a path asks for a page's Markdown (`….md`). */
export function asksMarkdown(segments: string[]): boolean {
  const last = segments.at(-1);
  return last !== undefined && last.length > 3 && last.endsWith('.md');
}

/** The Markdown of the page whose URL is `segments` without `.md`; undefined when the reader may read no page there. */
export async function markdownAt(db: Db, site: SiteRow, structure: SiteStructure, visitor: Visitor, segments: string[]): Promise<string | undefined> {
  const last = segments.at(-1)!;
  const nav = navigate(site, structure, visitor, [...segments.slice(0, -1), last.slice(0, -3)]);
  if (!nav.variant) return undefined;
  const tree = await spaceTree(db, nav.variant.space);
  const readable = readablePages(tree, visitor);
  const path = nav.rest.join('/');
  const target = path === '' ? readingOrder(readable)[0] : readable.find((p) => p.path === path);
  if (!target || target.page.type !== 'document') return undefined;
  // References as the `markdown` format writes them: pages as relative `.md` paths, which this site serves to agents.
  return pageMarkdown({ ...target.page, markdown: storedPageMarkdown(target.page, tree.refs.markdownRefs(target.page), `${tree.revisionId}\u0000${target.page.id}`) });
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
