// The HTML GitBook writes inside its HTML constructs (a table cell's `<strong>`, `<ul>`, `<br>`, `<mark>`,
// buttons, icons, `<picture>`) as mdast and back, so a cell is read and written by the same code as the
// page's Markdown (markdown-document.ts). hast-util-to-mdast (rehype-remark's engine) maps HTML to mdast;
// GitBook's own inline tags (colour marks, keyboard, superscript, subscript, buttons, icons, light/dark
// pictures), which mdast has no node for, stay `html` nodes, as they are in Markdown, for the inline reader;
// a mention (`<a data-mention>`) is Markdown's, a link titled "mention".
// mdast-util-to-hast and hast-util-raw (remark-rehype's and rehype-raw's engines) go the other way, the
// raw HTML the writer gives for those tags parsed into elements, so nothing is built as HTML text.
import type { Element, RootContent as HastContent } from 'hast';
import { raw } from 'hast-util-raw';
import { toHtml } from 'hast-util-to-html';
import { defaultHandlers, toMdast, type Handle, type State } from 'hast-util-to-mdast';
import type * as Md from 'mdast';
import { defaultHandlers as toHastDefaults, toHast, type Handler as ToHastHandler } from 'mdast-util-to-hast';
import type { DocumentBlockShape as Block } from '../../contract/document.js';
import type { ContentRefValue } from './markdown-refs.js';

/** What reading GitBook's HTML needs of the page's reader: link targets, and Markdown blocks as Document blocks. */
export interface HtmlReader {
  ref(url: string): ContentRefValue;
  blocks(nodes: Md.RootContent[]): Block[];
}

/** What writing GitBook's HTML needs of the page's writer: link targets, their labels, and Document blocks as mdast. */
export interface HtmlWriter {
  ref(ref: ContentRefValue): string;
  label(ref: ContentRefValue): string;
  blocks(blocks: Block[]): Md.RootContent[];
}

const classes = (e: Element) => (Array.isArray(e.properties.className) ? e.properties.className.map(String) : []);

/** An element kept as its opening tag, its content, its closing tag (html nodes around mdast). */
function asTags(state: State, node: Element): Md.RootContent[] {
  const empty = toHtml({ ...node, children: [] });
  const close = `</${node.tagName}>`;
  const open = empty.endsWith(close) ? empty.slice(0, -close.length) : empty;
  return [{ type: 'html', value: open }, ...(state.all(node) as Md.RootContent[]), { type: 'html', value: close }];
}

const handlers: Record<string, Handle> = {
  mark: (state, node) => asTags(state, node) as never,
  kbd: (state, node) => asTags(state, node) as never,
  sup: (state, node) => asTags(state, node) as never,
  sub: (state, node) => asTags(state, node) as never,
  a: (state, node) => {
    if (classes(node).includes('button')) return asTags(state, node) as never;
    // A mention (`<a data-mention href="…">`): Markdown's form of one, a link titled "mention".
    if (node.properties.dataMention !== undefined && typeof node.properties.href === 'string') return { type: 'link', url: node.properties.href, title: 'mention', children: state.all(node) } as never;
    return defaultHandlers.a(state, node);
  },
  button: (state, node) => (classes(node).includes('button') ? (asTags(state, node) as never) : (state.all(node) as never)),
  i: (state, node) => (classes(node).some((c) => c.startsWith('fa-')) ? (asTags(state, node) as never) : defaultHandlers.i(state, node)),
  picture: (_state, node) => ({ type: 'html', value: toHtml(node) }),
};

/** Elements that are blocks: content holding one is blocks, else it is one paragraph. */
const flowTags = new Set(['p', 'ul', 'ol', 'div', 'figure', 'pre', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'blockquote', 'table', 'hr', 'details']);

/** The mdast of HTML content (a cell's children): blocks, or one paragraph of its inline content. */
export function htmlToMdast(children: HastContent[]): Md.RootContent[] {
  const flow = children.some((c) => c.type === 'element' && flowTags.has(c.tagName));
  // Inline content goes through a `<p>`, which keeps GitBook's tags (html nodes) inside the paragraph.
  const content = flow ? structuredClone(children) : [{ type: 'element', tagName: 'p', properties: {}, children: structuredClone(children) } as Element];
  const root = toMdast({ type: 'root', children: content }, { handlers }) as Md.Root;
  return root.children;
}

/** Line ends mdast-util-to-hast puts between elements (after `<br>`, between list items): GitBook writes its HTML on one line. */
function withoutLineEnds(nodes: HastContent[]): HastContent[] {
  const out: HastContent[] = [];
  for (const n of nodes) {
    const previous = out.at(-1);
    if (n.type === 'text') {
      const value = previous?.type === 'element' && previous.tagName === 'br' ? n.value.replace(/^\n/, '') : n.value;
      if (value !== '' && value !== '\n') out.push({ ...n, value });
    } else if (n.type === 'element') {
      // hast-util-raw gives a flag attribute an empty value: GitBook writes `data-mention` bare.
      const properties = n.properties.dataMention === '' ? { ...n.properties, dataMention: true } : n.properties;
      out.push({ ...n, properties, children: withoutLineEnds(n.children) as Element['children'] });
    } else out.push(n);
  }
  return out;
}

/** Text with line ends as text and hard breaks (`<br>`), as GitBook writes a line end in HTML. */
function withBreaks<T extends Md.Nodes>(node: T): T {
  if (node.type === 'text' && node.value.includes('\n')) {
    return node.value.split('\n').flatMap((value, i) => [...(i > 0 ? [{ type: 'break' }] : []), ...(value === '' ? [] : [{ type: 'text', value }])]) as never;
  }
  if ('children' in node) return { ...node, children: (node.children as Md.Nodes[]).flatMap((c) => withBreaks(c)) };
  return node;
}

/**
 * A page link's text where GitBook writes a page by its file (a reference cell, a mention in a cell): the
 * name of the page's file, or of its folder for a folder's README (`formatting/` is `formatting`).
 */
export function fileName(href: string): string {
  const segments = href.split(/[?#]/)[0].replace(/\/+$/, '').split('/');
  // A folder's page (`page/README.md`) by its folder's name.
  if (segments.length > 1 && /^readme\.md$/i.test(segments.at(-1)!) && !['.', '..'].includes(segments.at(-2)!)) segments.pop();
  const name = segments.at(-1) ?? '';
  try {
    return decodeURIComponent(name) || href;
  } catch {
    return name || href;
  }
}

/** A link; a mention (a link titled "mention") as GitBook writes one in HTML, `<a data-mention href="…">`, a page by its file's name. */
const mentionOrLink: ToHastHandler = (state, node: Md.Link) => {
  if (node.title !== 'mention') return toHastDefaults.link(state, node);
  const page = !/^[a-z][a-z0-9+.-]*:/i.test(node.url) && /(\.md|\/)$/i.test(node.url.split(/[?#]/)[0]);
  return { type: 'element', tagName: 'a', properties: { dataMention: true, href: node.url }, children: page ? [{ type: 'text', value: fileName(node.url) }] : state.all(node) };
};

/** HTML elements of mdast content (a cell's blocks written as Markdown nodes). */
export function mdastToHtml(nodes: Md.RootContent[]): HastContent[] {
  const children = nodes.flatMap((n) => withBreaks(n)) as Md.RootContent[];
  const tree = raw(toHast({ type: 'root', children }, { allowDangerousHtml: true, handlers: { link: mentionOrLink } }) as never) as { children: HastContent[] };
  return withoutLineEnds(tree.children);
}
