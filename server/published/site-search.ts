// Search on a published site: the space search (server/search/) over the site space being read, keeping
// only the pages this reader may read (conditions of pages; sections and site spaces were chosen by
// navigation.ts) and are not `noIndex`, linked to where the site serves them.
import { pino } from 'pino';
import { createCtx } from '../context.js';
import type { Db } from '../db/client.js';
import { createUrls } from '../urls.js';
import { searchSpace } from '../search/search.js';
import type { Visitor } from '../conditions/evaluate.js';
import { readablePages, type Navigation } from './navigation.js';
import { escapeHtml } from './page-html.js';
import { spaceTree, type SiteStructure } from './site-data.js';

/**
 * An excerpt of the search (server/search/excerpt.ts) as HTML: its text is the page's own text, unescaped,
 * with each matching word between `<b>` and `</b>`. Those marks (around one word, letters and digits only,
 * as the excerpt writes them) become `<mark>`; everything else is text, escaped once.
 */
export function highlightedExcerpt(excerpt: string): string {
  let html = '';
  let at = 0;
  for (const match of excerpt.matchAll(/<b>([\p{L}\p{N}]+)<\/b>/gu)) {
    html += `${escapeHtml(excerpt.slice(at, match.index))}<mark>${escapeHtml(match[1])}</mark>`;
    at = match.index + match[0].length;
  }
  return html + escapeHtml(excerpt.slice(at));
}

const silent = pino({ level: 'silent' });
const MAX_RESULTS = 50;

/** The HTML of the results of `query` in the site space the reader is on. */
export async function searchPage(
  db: Db,
  _structure: SiteStructure,
  nav: Navigation,
  visitor: Visitor,
  query: string,
  hrefOf: (siteSpaceId: string, pagePath: string) => string,
): Promise<string> {
  const form = '<p>Type words to look for in the search box above.</p>';
  if (!query.trim() || !nav.variant) return form;
  const { space, row } = nav.variant;
  // The search reads nothing of the caller; the URLs it builds are replaced by the site's own.
  const ctx = createCtx({ caller: { userId: 'published-site' }, db, now: () => new Date(), urls: createUrls('http://published.invalid'), log: silent });
  const found = await searchSpace(ctx, { id: space.id, revisionId: space.revisionId }, query, { limit: MAX_RESULTS });
  const tree = await spaceTree(db, space);
  // A `noIndex` page is left out of the site's own search too (it stays readable at its URL).
  const readable = new Set(readablePages(tree, visitor).filter((p) => !p.page.noIndex).map((p) => p.page.id));
  const results = found.items.filter((item) => readable.has(item.id));
  if (results.length === 0) return `<p>No page of ${escapeHtml(space.title)} matches “${escapeHtml(query)}”.</p>`;
  const items = results.map((item) => {
    const section = item.sections[0];
    const href = hrefOf(row.id, item.path) + (section && section.id ? `#${encodeURIComponent(section.id)}` : '');
    const where = section?.title && section.id ? `<span class="result-section">${escapeHtml(section.title)}</span>` : '';
    return `<li><a href="${escapeHtml(href)}">${escapeHtml(item.title)}</a>${where}${section?.body ? `<p class="excerpt">${highlightedExcerpt(section.body)}</p>` : ''}</li>`;
  });
  return `<p role="status">${results.length} page${results.length === 1 ? '' : 's'} of ${escapeHtml(space.title)} match “${escapeHtml(query)}”.</p><ul class="results">${items.join('')}</ul>`;
}
