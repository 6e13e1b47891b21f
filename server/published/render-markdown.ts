// Page content as HTML: the page's Document as an mdast tree (server/content/markdown-document.ts, with
// the site's own URLs for its references) through remark -> rehype, sanitized before anything else touches
// it, so stored content never runs script in a reader's browser (raw HTML in the content is dropped,
// `javascript:` links lose their href, ids are prefixed). Headings then get ids and anchor links. Hints
// become `<aside class="hint hint-<style>" role="note">`; expandables `<details>`, images `<figure>`; the
// sanitizer allows exactly that. A revision never changes, so the HTML of a page of a revision at a place
// of a site is cached. Embed blocks show a card (title, provider, icon; the player of an allowed provider)
// from the embeds cache (server/embeds/embed-card.ts): their state is part of the cache key.
import { createHash } from 'node:crypto';
import type { Element, Root } from 'hast';
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
import { allowedIframeSource } from '../embeds/embed-html.js';
import { cachedCard, embedUrlsOf, warmEmbeds } from '../embeds/embed-card.js';
import type { EmbedLog } from '../embeds/embeds.js';

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

/**
 * GitHub's schema, plus the hint asides (only their classes and role), figures, highlighted text, and the
 * embed cards with their players (https iframes, then held to the providers' allow-list below).
 */
const schema: SanitizeSchema = {
  ...defaultSchema,
  tagNames: [...(defaultSchema.tagNames ?? []), 'aside', 'figure', 'figcaption', 'mark', 'iframe'],
  attributes: {
    ...defaultSchema.attributes,
    aside: [['className', 'hint', ...hintStyles.map((s) => `hint-${s}`)], ['role', 'note']],
    div: [...(defaultSchema.attributes?.div ?? []), ['className', 'embed', 'embed-rich', 'embed-link']],
    span: [...(defaultSchema.attributes?.span ?? []), ['className', 'embed-site']],
    iframe: ['src', 'title', 'loading', 'allowFullScreen'],
  },
};

/** rehype plugin, after the sanitizer: an iframe stays only when its source is an allowed provider's player (https, embed-html.ts). */
function rehypeAllowedIframes() {
  const prune = (node: Root | Element) => {
    node.children = node.children.filter((child) => child.type !== 'element' || child.tagName !== 'iframe' || allowedIframeSource(child.properties.src));
    for (const child of node.children) if (child.type === 'element') prune(child);
  };
  return prune;
}

const processor = unified()
  .use(remarkParse)
  .use(remarkGfm)
  .use(remarkHints)
  .use(remarkRehype, { handlers: { hint: hintToHast } }) // raw HTML nodes are not carried over (no allowDangerousHtml)
  .use(rehypeSanitize, schema) // GitHub's schema: no script, no event handlers, no javascript: URLs
  .use(rehypeAllowedIframes)
  .use(rehypeSlug) // after sanitizing: ids made from the heading text, not taken from the content
  .use(rehypeAutolinkHeadings, { behavior: 'append', properties: { className: ['anchor'], ariaLabel: 'Link to this section' }, content: { type: 'text', value: '#' } })
  .use(rehypeStringify)
  .freeze();

// Pages of every site share one cache; 4,000 rendered pages is a few tens of MB at most.
const cache = new LRUCache<string, string>({ max: 4000 });

/**
 * The HTML of a page's Document on a site (`cacheKey`: revision, site place and page, as its links depend on
 * where the site serves its pages): the Document as mdast with the site's URLs for its references
 * (markdown-document.ts documentToMdast), through the same rehype steps and sanitizer as Markdown. The
 * embeds it shows are fetched first when not known yet (within a short deadline), and what is known of
 * them is part of the key, so a page rendered before its embeds were known is rendered again after.
 */
export async function renderDocumentPage(cacheKey: string, document: Document, refs: MarkdownRefs, log: EmbedLog): Promise<string> {
  const embeds = embedUrlsOf(document.nodes);
  let key = cacheKey;
  if (embeds.length > 0) {
    await warmEmbeds(embeds, log);
    key += `\u0000${createHash('sha256').update(JSON.stringify(embeds.map(cachedCard))).digest('base64url')}`;
  }
  let html = cache.get(key);
  if (html === undefined) {
    const hast = processor.runSync(documentToMdast(document, refs, cachedCard));
    html = String(processor.stringify(hast));
    cache.set(key, html);
  }
  return html;
}
