// GitBook's images in HTML, as its Git Sync writes them: a block of images is `<figure>`s (alone, or several in
// a `<div>`; `<div align="left">` and `<div data-with-frame="true">` say the block's alignment and frame), each
// an `<img src alt width>` or, with a dark-mode variant, a `<picture>` (`<source srcset="…"
// media="(prefers-color-scheme: dark)">` then the `<img>`), and a `<figcaption><p>…</p></figcaption>` whose
// formatting is kept (a caption fragment). In a paragraph, a `<picture>` is an inline image with its dark
// variant. Read into GitBook's `images`/`image` blocks and `inline-image` (`ref`, `refDark`, `alt`, `width`),
// written back the same way, built as trees (hastscript) and serialized by hast-util-to-html.
import type { Element, ElementContent, RootContent as HastContent } from 'hast';
import { fromHtml } from 'hast-util-from-html';
import { toHtml } from 'hast-util-to-html';
import { h } from 'hastscript';
import type { DocumentBlockShape as Block, DocumentInlineShape as Inline } from '../../contract/document.js';
import { htmlToMdast, mdastToHtml, type HtmlReader, type HtmlWriter } from './markdown-html-mdast.js';
import type { ContentRefValue } from './markdown-refs.js';

const isElement = (n: HastContent | undefined): n is Element => n?.type === 'element';
const elementsOf = (children: HastContent[]) => children.filter((c) => !(c.type === 'text' && c.value.trim() === '') && c.type !== 'comment');
const darkMedia = '(prefers-color-scheme: dark)';

interface Picture {
  src: string;
  dark?: string;
  alt: string;
  width?: number;
}

/** An `<img>`, or a `<picture>` of a dark `<source>` and an `<img>`: its sources and alt text. */
function pictureOf(e: Element): Picture | undefined {
  const img = e.tagName === 'img' ? e : e.tagName === 'picture' ? e.children.find((c): c is Element => isElement(c) && c.tagName === 'img') : undefined;
  if (!img || typeof img.properties.src !== 'string') return undefined;
  const source = e.tagName === 'picture' ? e.children.find((c): c is Element => isElement(c) && c.tagName === 'source' && c.properties.media === darkMedia) : undefined;
  const srcSet = source?.properties.srcSet;
  const dark = Array.isArray(srcSet) ? srcSet.join(', ') : typeof srcSet === 'string' ? srcSet : undefined;
  const width = Number(img.properties.width);
  return { src: img.properties.src, ...(dark && { dark }), alt: typeof img.properties.alt === 'string' ? img.properties.alt : '', ...(Number.isFinite(width) && width > 0 && { width }) };
}

/** An image reference: a file of the space or a URL (what GitBook's image allows); undefined for anything else. */
function imageRef(url: string, read: HtmlReader): ContentRefValue | undefined {
  const ref = read.ref(url);
  return ref?.kind === 'file' || ref?.kind === 'url' ? ref : undefined;
}

/** The images block of an HTML block of figures (see above); undefined for any other HTML. */
export function figuresBlock(html: string, read: HtmlReader): Block | undefined {
  if (!/^\s*<(figure|div)[\s>]/i.test(html)) return undefined;
  let figures = elementsOf(fromHtml(html, { fragment: true }).children);
  const data: Record<string, unknown> = {};
  const wrapper = figures[0];
  if (figures.length === 1 && isElement(wrapper) && wrapper.tagName === 'div') {
    const align = wrapper.properties.align;
    if (align === 'left' || align === 'right' || align === 'center') data.align = align;
    if (wrapper.properties.dataWithFrame === 'true') data.withFrame = true;
    figures = elementsOf(wrapper.children);
  }
  if (figures.length === 0 || !figures.every((f) => isElement(f) && f.tagName === 'figure')) return undefined;
  const images: Block[] = [];
  for (const figure of figures as Element[]) {
    const parts = elementsOf(figure.children);
    const picture = parts.find((p): p is Element => isElement(p) && (p.tagName === 'img' || p.tagName === 'picture'));
    const found = picture && pictureOf(picture);
    const ref = found && imageRef(found.src, read);
    if (!found || !ref) return undefined;
    const refDark = found.dark === undefined ? undefined : imageRef(found.dark, read);
    const caption = parts.find((p): p is Element => isElement(p) && p.tagName === 'figcaption');
    // The caption's paragraphs, their formatting kept (GitBook's caption fragment holds paragraphs).
    const captionBlocks = caption
      ? read
          .blocks(htmlToMdast(caption.children))
          .filter((b) => b.type === 'paragraph' && (b.nodes ?? []).length > 0)
          .map((b) => ({ ...b, isVoid: false, data: b.data ?? {} }) as Block)
      : [];
    images.push({
      object: 'block',
      type: 'image',
      isVoid: true,
      data: { ref, ...(refDark && { refDark }), ...(found.alt && { alt: found.alt }), ...(found.width !== undefined && { width: found.width }) },
      fragments: captionBlocks.length > 0 ? [{ object: 'fragment', fragment: 'caption', nodes: captionBlocks }] : [],
    } as unknown as Block);
  }
  return { object: 'block', type: 'images', ...(Object.keys(data).length > 0 && { data }), nodes: images } as Block;
}

/** `<img>`, or `<picture>` with the dark variant, of an image's data. */
function pictureElement(data: { ref?: ContentRefValue; refDark?: ContentRefValue; alt?: unknown; width?: unknown; size?: unknown }, write: HtmlWriter): Element {
  const img = h('img', {
    src: write.ref(data.ref),
    alt: typeof data.alt === 'string' ? data.alt.replace(/\s+/g, ' ') : '',
    ...(typeof data.width === 'number' && { width: String(data.width) }),
  });
  if (!data.refDark) return img;
  return h('picture', [h('source', { srcSet: write.ref(data.refDark), media: darkMedia }), img]);
}

/** An image block's `<figure>`: its picture and its caption (the caption fragment's paragraphs, or a legacy `data.caption`). */
function figureElement(image: Block, write: HtmlWriter): Element {
  const data = (image.data ?? {}) as Parameters<typeof pictureElement>[0] & { caption?: unknown };
  const blocks = image.fragments?.find((f) => f.fragment === 'caption')?.nodes ?? [];
  let caption: ElementContent[] = [];
  if (blocks.length > 0) caption = mdastToHtml(write.blocks(blocks)) as ElementContent[];
  else if (typeof data.caption === 'string' && data.caption !== '') caption = [h('p', data.caption)];
  return h('figure', [pictureElement(data, write), h('figcaption', caption)]);
}

/** An images block (or a lone image block) in GitBook's HTML, one line; undefined when it has no image. */
export function figuresHtml(b: Block, write: HtmlWriter): string | undefined {
  const images = b.type === 'image' ? [b] : (b.nodes ?? []).filter((i): i is Block => i.object === 'block' && i.type === 'image');
  if (images.length === 0) return undefined;
  const figures = images.map((i) => figureElement(i, write));
  const data = (b.type === 'images' ? (b.data ?? {}) : {}) as { align?: unknown; withFrame?: unknown };
  const properties = {
    ...(typeof data.align === 'string' && { align: data.align }),
    ...(data.withFrame === true && { dataWithFrame: 'true' }),
  };
  return toHtml(figures.length === 1 && Object.keys(properties).length === 0 ? figures[0] : h('div', properties, figures));
}

/**
 * The inline image of a `<picture>` in a paragraph (its HTML, which Markdown gives in pieces, joined), or of an
 * `<img data-size="line">` (an image the size of the text); undefined when it is none.
 */
export function pictureInline(html: string, read: HtmlReader): Inline | undefined {
  const parts = elementsOf(fromHtml(html, { fragment: true }).children);
  const picture = parts[0];
  if (parts.length !== 1 || !isElement(picture) || (picture.tagName !== 'picture' && picture.tagName !== 'img')) return undefined;
  const size = picture.tagName === 'img' ? picture.properties.dataSize : undefined;
  if (picture.tagName === 'img' && size !== 'line' && size !== 'original') return undefined;
  const found = pictureOf(picture);
  const ref = found && imageRef(found.src, read);
  if (!found || !ref) return undefined;
  const refDark = found.dark === undefined ? undefined : imageRef(found.dark, read);
  return { object: 'inline', type: 'inline-image', isVoid: true, data: { ref, ...(refDark && { refDark }), ...(found.alt && { alt: found.alt }), ...(size && { size }) } } as Inline;
}

/** An inline image with a dark variant (a `<picture>`) or a size (`<img data-size>`) as GitBook writes it. */
export function pictureHtml(data: { ref?: ContentRefValue; refDark?: ContentRefValue; alt?: unknown; size?: unknown }, write: HtmlWriter): string {
  const element = pictureElement({ ref: data.ref, refDark: data.refDark, alt: data.alt }, write);
  const img = element.tagName === 'img' ? element : (element.children.at(-1) as Element);
  if (data.size === 'line' || data.size === 'original') img.properties.dataSize = data.size;
  return toHtml(element);
}
