// Paragraphs and headings aligned to the centre or the end, which GitBook's Git Sync writes as HTML
// (`<p align="center">…</p>`, `<h3 align="center">…</h3>`): Markdown has no alignment. Read into the block
// with its `data.align` (GitBook's TextAlignment: `center`, `end`), its inline content through the page's
// reader; written back the same way, built as a tree and serialized by hast-util-to-html. A `<p>` without
// attributes is read the same way, into a paragraph with no alignment (Markdown written by hand wraps a line
// of buttons and icons so; GitBook reads it as a paragraph, and its renderer shows raw HTML as text).
import type { Element } from 'hast';
import { fromHtml } from 'hast-util-from-html';
import { toHtml } from 'hast-util-to-html';
import type * as Md from 'mdast';
import type { DocumentBlockShape as Block } from '../../contract/document.js';
import { htmlToMdast, mdastToHtml, type HtmlReader } from './markdown-html-mdast.js';

const alignOf: Record<string, 'center' | 'end'> = { center: 'center', right: 'end' };
const headingTags = ['h1', 'h2', 'h3', 'h4', 'h5', 'h6'];

/**
 * The paragraph or heading of an HTML block that is one `<p align>` or `<hN align>` (centre or right), or one
 * plain `<p>` (a paragraph without alignment); undefined for any other HTML.
 */
export function alignedBlock(html: string, read: HtmlReader): Block | undefined {
  const plain = /^\s*<p>/i.test(html);
  if (!plain && !/^\s*<(p|h[1-6])\s[^>]*\balign\s*=/i.test(html)) return undefined;
  const parts = fromHtml(html, { fragment: true }).children.filter((c) => !(c.type === 'text' && c.value.trim() === ''));
  const e = parts[0];
  if (parts.length !== 1 || e.type !== 'element' || (e.tagName !== 'p' && !headingTags.includes(e.tagName))) return undefined;
  const align = alignOf[String(e.properties.align ?? '').toLowerCase()];
  if (!align && !plain) return undefined;
  const [paragraph, ...rest] = read.blocks(htmlToMdast(e.children));
  // Only inline content: an element holding blocks is not one GitBook writes.
  if (rest.length > 0 || (paragraph && paragraph.type !== 'paragraph')) return undefined;
  const nodes = paragraph?.nodes ?? [];
  if (e.tagName === 'p') return { object: 'block', type: 'paragraph', ...(align && { data: { align } }), nodes } as Block;
  const level = Number(e.tagName.slice(1));
  const type = level === 1 ? 'heading-1' : level === 2 ? 'heading-2' : 'heading-3';
  return { object: 'block', type, data: { align, ...(level > 3 && { level }) }, nodes } as Block;
}

/** A paragraph or heading aligned to the centre or the end in GitBook's HTML; undefined when it is not aligned so. */
export function alignedHtml(b: Block, level: number, inlines: Md.PhrasingContent[]): string | undefined {
  const align = (b.data as { align?: unknown } | undefined)?.align;
  if (align !== 'center' && align !== 'end') return undefined;
  const [p] = mdastToHtml([{ type: 'paragraph', children: inlines }]);
  const children = p?.type === 'element' ? p.children : [];
  const element: Element = { type: 'element', tagName: b.type === 'paragraph' ? 'p' : `h${level}`, properties: { align: align === 'end' ? 'right' : 'center' }, children };
  return toHtml(element);
}
