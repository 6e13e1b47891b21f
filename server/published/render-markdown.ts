// Page content as HTML: the page's Document as an mdast tree (server/content/markdown-document.ts, with
// the site's own URLs for its references) through remark -> rehype, sanitized before anything else touches
// it, so stored content never runs script in a reader's browser (raw HTML in the content is dropped,
// `javascript:` links lose their href, ids are prefixed). Headings then get ids and anchor links. Hints
// become `<aside class="hint hint-<style>" role="note">`; expandables `<details>`, images `<figure>`; the
// sanitizer allows exactly that. A revision never changes, so the HTML of a page of a revision at a place
// of a site is cached.
import type { Element } from 'hast';
import { LRUCache } from 'lru-cache';
import type { State } from 'mdast-util-to-hast';
import rehypeAutolinkHeadings from 'rehype-autolink-headings';
import rehypeSanitize, { defaultSchema, type Options as SanitizeSchema } from 'rehype-sanitize';
import rehypeSlug from 'rehype-slug';
import rehypeStringify from 'rehype-stringify';
import remarkGfm from 'remark-gfm';
import remarkParse from 'remark-parse';
import remarkRehype from 'remark-rehype';
import { unified, type Processor } from 'unified';
import { documentToMdast, type Document } from '../content/markdown-document.js';
import { hintStyles, liquidFromMarkdown, liquidSyntax, type Hint } from '../content/markdown-liquid.js';
import type { MarkdownRefs } from '../content/markdown-refs.js';

/** remark plugin: the hint syntax, in the parser's extensions (as remark-gfm adds GFM's). */
function remarkHints(this: Processor) {
  const data = this.data();
  (data.micromarkExtensions ??= []).push(liquidSyntax());
  (data.fromMarkdownExtensions ??= []).push(liquidFromMarkdown());
}

/** mdast-util-to-hast handler: a hint is an aside (a note beside the text) with its style as a class. */
function hintToHast(state: State, node: Hint): Element {
  const element: Element = {
    type: 'element',
    tagName: 'aside',
    properties: { className: ['hint', `hint-${node.style}`], role: 'note' },
    children: state.wrap(state.all(node), true),
  };
  state.patch(node, element);
  return state.applyData(node, element);
}

/** GitHub's schema, plus the hint asides (only their classes and role), figures and highlighted text. */
const schema: SanitizeSchema = {
  ...defaultSchema,
  tagNames: [...(defaultSchema.tagNames ?? []), 'aside', 'figure', 'figcaption', 'mark'],
  attributes: { ...defaultSchema.attributes, aside: [['className', 'hint', ...hintStyles.map((s) => `hint-${s}`)], ['role', 'note']] },
};

const processor = unified()
  .use(remarkParse)
  .use(remarkGfm)
  .use(remarkHints)
  .use(remarkRehype, { handlers: { hint: hintToHast } }) // raw HTML nodes are not carried over (no allowDangerousHtml)
  .use(rehypeSanitize, schema) // GitHub's schema: no script, no event handlers, no javascript: URLs
  .use(rehypeSlug) // after sanitizing: ids made from the heading text, not taken from the content
  .use(rehypeAutolinkHeadings, { behavior: 'append', properties: { className: ['anchor'], ariaLabel: 'Link to this section' }, content: { type: 'text', value: '#' } })
  .use(rehypeStringify)
  .freeze();

// Pages of every site share one cache; 4,000 rendered pages is a few tens of MB at most.
const cache = new LRUCache<string, string>({ max: 4000 });

/**
 * The HTML of a page's Document on a site (`cacheKey`: revision, site place and page, as its links depend on
 * where the site serves its pages): the Document as mdast with the site's URLs for its references
 * (markdown-document.ts documentToMdast), through the same rehype steps and sanitizer as Markdown.
 */
export function renderDocumentPage(cacheKey: string, document: Document, refs: MarkdownRefs): string {
  let html = cache.get(cacheKey);
  if (html === undefined) {
    const hast = processor.runSync(documentToMdast(document, refs));
    html = String(processor.stringify(hast));
    cache.set(cacheKey, html);
  }
  return html;
}
