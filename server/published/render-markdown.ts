// Page content as HTML: the page's Document as the mdast tree of its GitBook-flavoured Markdown (server/content/
// markdown-document.ts, with the site's own URLs for its references; rendered directly, not written as text
// and parsed back, which was two thirds of a first view's render: the HTML is the same, test/published-render-tree.test.ts),
// or Markdown read by remark with GFM
// (tables, task lists, footnotes), math (`$$…$$`) and GitBook's block tags (markdown-liquid.ts), to
// rehype, where the HTML GitBook's Markdown holds (figures, <details>, <picture>, cards-view tables,
// buttons, icons) is parsed by an HTML parser (rehype-raw), then sanitized before anything else touches
// it (render/sanitize-schema.ts: GitHub's schema plus exactly what this renderer reads back), so stored
// content never runs script in a reader's browser. After sanitizing, headings get ids (the Document's
// `meta.id`, else the same rule's slug: render/heading-anchors.ts) and anchor links,
// and the blocks are built as a reader expects (render/blocks.ts: tabs, steppers, columns, cards, link
// cards, embeds, files, figures with zoom, code highlighted by Shiki, math typeset by KaTeX; inline: buttons,
// icons, mention chips, annotations as footnotes whose references open a popover). A revision
// never changes, so the HTML of a page of a revision at a place of a site is cached. Embed blocks show a
// card from the embeds cache (server/embeds/embed-card.ts): their state is part of the cache key.
import { createHash } from 'node:crypto';
import type { Element, Root } from 'hast';
import { LRUCache } from 'lru-cache';
import type * as Md from 'mdast';
import { mathFromMarkdown } from 'mdast-util-math';
import { math } from 'micromark-extension-math';
import rehypeAutolinkHeadings from 'rehype-autolink-headings';
import rehypeRaw from 'rehype-raw';
import rehypeSanitize from 'rehype-sanitize';
import rehypeStringify from 'rehype-stringify';
import remarkGfm from 'remark-gfm';
import remarkParse from 'remark-parse';
import remarkRehype from 'remark-rehype';
import { unified, type Processor } from 'unified';
import { documentToMarkdownTree, parseUnpaired, type Document } from '../content/markdown-document.js';
import { liquidFromMarkdown, liquidSyntax } from '../content/markdown-liquid.js';
import type { MarkdownRefs } from '../content/markdown-refs.js';
import { cachedCard, embedUrlsOf, warmEmbeds } from '../embeds/embed-card.js';
import type { EmbedLog } from '../embeds/embeds.js';
import { BlockBuilder, textOf } from './render/blocks.js';
import { prepareHighlighter } from './render/code.js';
import rehypeHeadingAnchors from './render/heading-anchors.js';
import { hintToHast, liquidToHast } from './render/liquid-hast.js';
import { sanitizeSchema } from './render/sanitize-schema.js';

/** remark plugin: GitBook's block tags and `$$` math, in the parser's extensions (as remark-gfm adds GFM's). */
function remarkGitbook(this: Processor) {
  const data = this.data();
  (data.micromarkExtensions ??= []).push(liquidSyntax(), math({ singleDollarTextMath: false }));
  (data.fromMarkdownExtensions ??= []).push(liquidFromMarkdown({ reparse: parseUnpaired }), mathFromMarkdown());
}

const parser = unified().use(remarkParse).use(remarkGfm).use(remarkGitbook).freeze();

const processor = unified()
  .use(remarkRehype, { allowDangerousHtml: true, handlers: { hint: hintToHast, liquid: liquidToHast } as never })
  .use(rehypeRaw) // the HTML in the Markdown, parsed as a browser would
  .use(rehypeSanitize, sanitizeSchema) // no script, no event handlers, no javascript: URLs
  .use(rehypeHeadingAnchors) // after sanitizing: the Document's anchors, else ids made from the heading text
  .use(rehypeAutolinkHeadings, { behavior: 'append', properties: { className: ['anchor'], ariaLabel: 'Link to this section' }, content: { type: 'text', value: '#' } })
  .use(rehypeStringify, { allowDangerousHtml: true }) // the raw nodes are KaTeX's, added after sanitizing
  .freeze();

/** A heading of the page for "on this page". */
export interface OutlineEntry {
  id: string;
  title: string;
  depth: number;
}

export interface RenderedPage {
  html: string;
  outline: OutlineEntry[];
}

/** The page's headings of levels 2 and 3 outside tab panels (a hidden panel's heading is not a place to go). */
function outlineOf(root: Root): OutlineEntry[] {
  const out: OutlineEntry[] = [];
  const walk = (node: Root | Element) => {
    for (const child of node.children) {
      if (child.type !== 'element') continue;
      const className = Array.isArray(child.properties.className) ? child.properties.className : [];
      if (className.includes('tab-panel') || className.includes('footnotes')) continue;
      if ((child.tagName === 'h2' || child.tagName === 'h3') && typeof child.properties.id === 'string') {
        const title = child.children
          .filter((c) => !(c.type === 'element' && c.tagName === 'a' && Array.isArray(c.properties.className) && c.properties.className.includes('anchor')))
          .map((c) => textOf(c))
          .join('')
          .trim();
        if (title) out.push({ id: child.properties.id, title, depth: child.tagName === 'h2' ? 2 : 3 });
      } else walk(child);
    }
  };
  walk(root);
  return out;
}

/**
 * Math nodes given the hast hints mdast-util-math's parser gives them (a tree built from a Document, not
 * parsed, has none), so that a page renders the same whether its Markdown was parsed or not.
 */
function mathAsParsed(node: Md.Root | Md.RootContent): void {
  if ((node.type === 'math' || node.type === 'inlineMath') && node.data === undefined) {
    const inline = node.type === 'inlineMath';
    const code: Element = { type: 'element', tagName: 'code', properties: { className: ['language-math', inline ? 'math-inline' : 'math-display'] }, children: [] };
    if (inline) node.data = { hName: 'code', hProperties: code.properties, hChildren: [{ type: 'text', value: node.value }] };
    else node.data = { hName: 'pre', hChildren: [{ ...code, children: [{ type: 'text', value: node.value }] }] };
  }
  if ('children' in node) for (const child of node.children) mathAsParsed(child);
}

/** The languages of a page's code blocks. */
function languagesOf(node: Md.Root | Md.RootContent, into = new Set<string>()): Set<string> {
  if (node.type === 'code' && node.lang) into.add(node.lang);
  if ('children' in node) for (const child of node.children) languagesOf(child, into);
  return into;
}

// Pages of every site share one cache; 4,000 rendered pages is a few tens of MB at most.
const cache = new LRUCache<string, RenderedPage>({ max: 4000 });

/** GitBook-flavoured Markdown as the published site's HTML and outline (`embed`: what an embed URL shows). */
export async function renderMarkdownPage(markdown: string, embed: (url: string) => ReturnType<typeof cachedCard> = () => undefined): Promise<RenderedPage> {
  const mdast = parser.parse(markdown);
  parser.runSync(mdast);
  return renderMdast(mdast, embed);
}

/** An mdast tree (as the parser above gives it) as the published site's HTML and outline. */
export async function renderMdast(mdast: Md.Root, embed: (url: string) => ReturnType<typeof cachedCard> = () => undefined): Promise<RenderedPage> {
  mathAsParsed(mdast);
  // Also the raw HTML's `<pre class="language-…">` falls back to plain text when its grammar is not loaded.
  const highlighter = await prepareHighlighter(languagesOf(mdast));
  const hast = processor.runSync(mdast) as Root;
  new BlockBuilder({ highlighter, embed }).run(hast);
  return { html: processor.stringify(hast), outline: outlineOf(hast) };
}

/**
 * The HTML of a page's Document on a site (`cacheKey`: revision, site place and page, as its links depend on
 * where the site serves its pages): the Document as the tree of its GitBook-flavoured Markdown with the site's
 * URLs for its references, rendered as above. The embeds it shows are fetched before it renders, those the
 * embed cache lacks within a short deadline; the cards fetched are part of the key, so a page rendered while
 * an embed's fetch was still running is rendered again once the card arrives.
 */
export async function renderDocumentPage(cacheKey: string, document: Document, refs: MarkdownRefs, log: EmbedLog): Promise<RenderedPage> {
  const embeds = embedUrlsOf(document.nodes);
  let key = cacheKey;
  if (embeds.length > 0) {
    await warmEmbeds(embeds, log);
    key += `\u0000${createHash('sha256').update(JSON.stringify(embeds.map(cachedCard))).digest('base64url')}`;
  }
  let page = cache.get(key);
  if (page === undefined) {
    page = await renderMdast(documentToMarkdownTree(document, refs, { site: true, allAnchors: true }), cachedCard);
    cache.set(key, page);
  }
  return page;
}
