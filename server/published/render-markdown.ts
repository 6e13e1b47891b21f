// Page content as HTML: the stored Markdown through remark -> rehype, sanitized before anything else
// touches it, so stored content never runs script in a reader's browser (raw HTML in the Markdown is
// dropped, `javascript:` links lose their href, ids are prefixed). Headings then get ids and anchor links.
// A revision never changes, so the HTML of a page of a revision is cached (by revision id and page id).
import { LRUCache } from 'lru-cache';
import rehypeAutolinkHeadings from 'rehype-autolink-headings';
import rehypeSanitize from 'rehype-sanitize';
import rehypeSlug from 'rehype-slug';
import rehypeStringify from 'rehype-stringify';
import remarkGfm from 'remark-gfm';
import remarkParse from 'remark-parse';
import remarkRehype from 'remark-rehype';
import { unified } from 'unified';

const processor = unified()
  .use(remarkParse)
  .use(remarkGfm)
  .use(remarkRehype) // raw HTML nodes are not carried over (no allowDangerousHtml)
  .use(rehypeSanitize) // GitHub's schema: no script, no event handlers, no javascript: URLs
  .use(rehypeSlug) // after sanitizing: ids made from the heading text, not taken from the content
  .use(rehypeAutolinkHeadings, { behavior: 'append', properties: { className: ['anchor'], ariaLabel: 'Link to this section' }, content: { type: 'text', value: '#' } })
  .use(rehypeStringify)
  .freeze();

/** The HTML of `markdown`, sanitized. */
export function renderMarkdown(markdown: string): string {
  return String(processor.processSync(markdown));
}

// Pages of every site share one cache; 4,000 rendered pages is a few tens of MB at most.
const cache = new LRUCache<string, string>({ max: 4000 });

/** The HTML of a page of an immutable revision, rendered once per process. */
export function renderPage(revisionId: string, pageId: string, markdown: string): string {
  const key = `${revisionId}\u0000${pageId}`;
  let html = cache.get(key);
  if (html === undefined) {
    html = renderMarkdown(markdown);
    cache.set(key, html);
  }
  return html;
}
