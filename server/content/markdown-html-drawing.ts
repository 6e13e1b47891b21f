// A drawing, which GitBook's Git Sync writes as an image of its SVG file marked as a drawing:
// `<img src="../.gitbook/assets/diagram.svg" alt="A diagram" class="gitbook-drawing">`. Read into a
// `drawing` block (its file, its alternative text) when the source is a file of the space (GitBook's
// drawing holds a file, never a URL); written back the same way, built as a tree and serialized by
// hast-util-to-html.
import { fromHtml } from 'hast-util-from-html';
import { toHtml } from 'hast-util-to-html';
import type { DocumentBlockShape as Block } from '../../contract/document.js';
import type { HtmlReader, HtmlWriter } from './markdown-html-mdast.js';
import type { ContentRefValue } from './markdown-refs.js';

/** The drawing of an HTML block that is one `<img class="gitbook-drawing">` of a file; undefined for any other HTML. */
export function drawingBlock(html: string, read: HtmlReader): Block | undefined {
  if (!/^\s*<img\s[^>]*\bgitbook-drawing\b/i.test(html)) return undefined;
  const parts = fromHtml(html, { fragment: true }).children.filter((c) => !(c.type === 'text' && c.value.trim() === ''));
  const img = parts[0];
  if (parts.length !== 1 || img.type !== 'element' || img.tagName !== 'img') return undefined;
  const classes = Array.isArray(img.properties.className) ? img.properties.className.map(String) : [];
  if (!classes.includes('gitbook-drawing') || typeof img.properties.src !== 'string') return undefined;
  const ref = read.ref(img.properties.src);
  if (ref?.kind !== 'file') return undefined;
  const alt = typeof img.properties.alt === 'string' && img.properties.alt !== '' ? img.properties.alt : undefined;
  return { object: 'block', type: 'drawing', isVoid: true, data: { ref, ...(alt && { alt }) } } as Block;
}

/** A drawing as GitBook's `<img class="gitbook-drawing">`; undefined for a drawing with no file. */
export function drawingHtml(b: Block, write: HtmlWriter): string | undefined {
  const data = (b.data ?? {}) as { ref?: ContentRefValue; alt?: unknown };
  if (data.ref?.kind !== 'file') return undefined;
  const alt = typeof data.alt === 'string' ? data.alt : '';
  return toHtml({ type: 'element', tagName: 'img', properties: { src: write.ref(data.ref), alt, className: ['gitbook-drawing'] }, children: [] });
}
