// What an HTML page says about itself, read from its parsed tree (hast-util-from-html, the parser the
// content conversions use): its oEmbed endpoint (`<link rel="alternate" type="application/json+oembed">`),
// its Open Graph and Twitter card properties, its `<title>` and its icon. URLs are resolved against the
// page's URL, and only http(s) ones are kept.
import type { Element, Nodes } from 'hast';
import { fromHtml } from 'hast-util-from-html';

export interface PageMetadata {
  oembed?: string;
  title?: string;
  siteName?: string;
  image?: string;
  icon?: string;
}

/** Every element of the tree, in document order. */
function* elements(node: Nodes): Generator<Element> {
  if (node.type === 'element') yield node;
  if ('children' in node) for (const child of node.children) yield* elements(child as Nodes);
}

function attribute(el: Element, name: string): string | undefined {
  const value = el.properties[name];
  if (Array.isArray(value)) return value.join(' ');
  return typeof value === 'string' ? value : undefined;
}

function textOf(node: Nodes): string {
  if (node.type === 'text') return node.value;
  return 'children' in node ? node.children.map((c) => textOf(c as Nodes)).join('') : '';
}

/** `raw` resolved against `base`, when it is an http(s) URL. */
export function httpUrl(raw: string | undefined, base: string): string | undefined {
  if (!raw) return undefined;
  try {
    const url = new URL(raw.trim(), base);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : undefined;
  } catch {
    return undefined;
  }
}

const clean = (value: string | undefined) => {
  const text = value?.replace(/\s+/g, ' ').trim();
  return text ? text.slice(0, 500) : undefined;
};

/** The metadata of the HTML page `html` served at `pageUrl`. */
export function readPageMetadata(html: string, pageUrl: string): PageMetadata {
  const tree = fromHtml(html);
  const meta = new Map<string, string>();
  let title: string | undefined;
  let oembed: string | undefined;
  let icon: string | undefined;
  for (const el of elements(tree)) {
    if (el.tagName === 'meta') {
      const key = (attribute(el, 'property') ?? attribute(el, 'name'))?.toLowerCase();
      const content = attribute(el, 'content');
      if (key && content !== undefined && !meta.has(key)) meta.set(key, content);
    } else if (el.tagName === 'title' && title === undefined) {
      title = textOf(el);
    } else if (el.tagName === 'link') {
      const rel = (attribute(el, 'rel') ?? '').toLowerCase().split(/\s+/);
      const type = attribute(el, 'type')?.toLowerCase();
      if (rel.includes('alternate') && type === 'application/json+oembed') oembed ??= httpUrl(attribute(el, 'href'), pageUrl);
      if (rel.includes('icon') || rel.includes('apple-touch-icon')) icon ??= httpUrl(attribute(el, 'href'), pageUrl);
    }
  }
  const found = {
    oembed,
    title: clean(meta.get('og:title')) ?? clean(meta.get('twitter:title')) ?? clean(title),
    siteName: clean(meta.get('og:site_name')),
    image: httpUrl(meta.get('og:image') ?? meta.get('twitter:image'), pageUrl),
    icon,
  };
  return Object.fromEntries(Object.entries(found).filter(([, v]) => v !== undefined)) as PageMetadata;
}
