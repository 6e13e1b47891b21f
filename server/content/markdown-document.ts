// Conversions between the Markdown a page stores and the rich-text Document the API shows, both ways,
// through the mdast syntax tree: mdast-util-from-markdown with GFM (tables, task lists, strikethrough,
// autolinks) reads Markdown, mdast-util-to-markdown writes it (escaping included). Nothing Markdown can
// say is lost on the way: headings (levels 4 to 6 are `heading-3` blocks with `data.level`), paragraphs,
// bold, italic, strikethrough, inline code, links (with title), images (with alt and title), ordered
// (with start), bullet and task lists (tight or loose), tables (with column alignment), code blocks
// (language and meta), quotes, GitBook hints (`{% hint style="…" %}`, markdown-hints.ts), dividers and
// raw HTML. Reference-style links and images are resolved to
// the links they stand for; a hard line break becomes a soft one (a newline in the text).
// Block keys are not made here: server/content/block-keys.ts gives them.
import type * as Md from 'mdast';
import { fromMarkdown } from 'mdast-util-from-markdown';
import { gfmFromMarkdown, gfmToMarkdown } from 'mdast-util-gfm';
import { toMarkdown } from 'mdast-util-to-markdown';
import { gfm } from 'micromark-extension-gfm';
import { hintFromMarkdown, hintStyles, hintSyntax, hintToMarkdown, type HintStyle } from './markdown-hints.js';
import type { DocumentBlockShape, DocumentInlineShape, DocumentTextShape } from '../../contract/document.js';

export type Block = DocumentBlockShape;
export type Inline = DocumentInlineShape;
export type Text = DocumentTextShape;
export type Leaf = Text['leaves'][number];
export interface Document {
  object: 'document';
  data?: { schemaVersion?: number } & Record<string, unknown>;
  nodes: Block[];
}
type InlineNode = Text | Inline;

// ---------------------------------------------------------------------------------------------------
// Markdown -> Document

const markOf: Record<string, string> = { strong: 'bold', emphasis: 'italic', delete: 'strikethrough' };
const MARK_ORDER = ['bold', 'italic', 'strikethrough', 'code'];

function leaf(text: string, marks: string[]): Leaf {
  const sorted = [...new Set(marks)].sort((a, b) => MARK_ORDER.indexOf(a) - MARK_ORDER.indexOf(b));
  return { object: 'leaf', text, ...(sorted.length > 0 && { marks: sorted.map((type) => ({ object: 'mark' as const, type })) }) };
}

const sameMarks = (a: Leaf, b: Leaf) => JSON.stringify(a.marks ?? []) === JSON.stringify(b.marks ?? []);

/** Groups leaves into text nodes between inlines, merging neighbour leaves with the same marks. */
function pushLeaf(out: InlineNode[], l: Leaf): void {
  if (l.text === '') return;
  const last = out.at(-1);
  if (last?.object !== 'text') {
    out.push({ object: 'text', leaves: [l] });
    return;
  }
  const prev = last.leaves.at(-1);
  if (prev && sameMarks(prev, l)) last.leaves[last.leaves.length - 1] = { ...prev, text: prev.text + l.text };
  else last.leaves.push(l);
}

type Definitions = Map<string, Md.Definition>;

function urlRef(url: string) {
  return { kind: 'url' as const, url };
}

function inlines(children: Md.PhrasingContent[], defs: Definitions, marks: string[] = [], out: InlineNode[] = []): InlineNode[] {
  for (const node of children) {
    switch (node.type) {
      case 'text':
        pushLeaf(out, leaf(node.value, marks));
        break;
      case 'break':
        pushLeaf(out, leaf('\n', marks));
        break;
      case 'inlineCode':
        // CommonMark shows a line ending in a code span as a space (and the writer cannot always keep one).
        pushLeaf(out, leaf(node.value.replace(/\r\n|\r|\n/g, ' '), [...marks, 'code']));
        break;
      case 'html':
        pushLeaf(out, leaf(node.value, marks));
        break;
      case 'strong':
      case 'emphasis':
      case 'delete':
        inlines(node.children, defs, [...marks, markOf[node.type]], out);
        break;
      case 'link':
      case 'linkReference': {
        const def = node.type === 'linkReference' ? defs.get(node.identifier) : undefined;
        const url = node.type === 'link' ? node.url : def?.url;
        if (url === undefined) {
          inlines(node.children, defs, marks, out);
          break;
        }
        const title = node.type === 'link' ? node.title : def?.title;
        out.push({ object: 'inline', type: 'link', isVoid: false, data: { ref: urlRef(url), ...(title && { title }) }, nodes: inlines(node.children, defs, marks) });
        break;
      }
      case 'image':
      case 'imageReference': {
        const def = node.type === 'imageReference' ? defs.get(node.identifier) : undefined;
        const url = node.type === 'image' ? node.url : def?.url;
        if (url === undefined) {
          pushLeaf(out, leaf(node.alt ?? '', marks));
          break;
        }
        const title = node.type === 'image' ? node.title : def?.title;
        out.push({ object: 'inline', type: 'inline-image', isVoid: true, data: { ref: urlRef(url), ...(node.alt && { alt: node.alt }), ...(title && { caption: title }) } });
        break;
      }
      default:
        // Footnote references are not read (GFM footnotes are not enabled).
        break;
    }
  }
  return out;
}

function block(type: Block['type'], nodes: Block['nodes'], data?: Block['data']): Block {
  return { object: 'block', type, ...(data && Object.keys(data).length > 0 && { data }), nodes };
}

function toBlocks(children: Md.Node[], defs: Definitions): Block[] {
  const out: Block[] = [];
  for (const child of children) {
    const b = toBlock(child as Md.RootContent, defs);
    if (b) out.push(b);
  }
  return out;
}

function toBlock(node: Md.RootContent, defs: Definitions): Block | undefined {
  switch (node.type) {
    case 'paragraph':
      return block('paragraph', inlines(node.children, defs));
    case 'heading': {
      const type = node.depth === 1 ? 'heading-1' : node.depth === 2 ? 'heading-2' : 'heading-3';
      return block(type, inlines(node.children, defs), node.depth > 3 ? { level: node.depth } : undefined);
    }
    case 'list': {
      const tasks = node.children.some((item) => typeof item.checked === 'boolean');
      const type = node.ordered ? 'list-ordered' : tasks ? 'list-tasks' : 'list-unordered';
      const items = node.children.map((item) =>
        block('list-item', toBlocks(item.children, defs), typeof item.checked === 'boolean' ? { checked: item.checked } : undefined),
      );
      const data: Record<string, unknown> = {};
      if (node.ordered && node.start != null && node.start !== 1) data.start = node.start;
      // A loose list (blank lines between items) renders its items as paragraphs: kept so it stays loose.
      if (node.spread || node.children.some((item) => item.spread)) data.spread = true;
      return block(type, items, data);
    }
    case 'code': {
      const lines = node.value.split('\n').map((line) => block('code-line', line === '' ? [] : [{ object: 'text', leaves: [leaf(line, [])] }]));
      return block('code', lines, { ...(node.lang && { syntax: node.lang }), ...(node.meta && { meta: node.meta }) });
    }
    case 'blockquote':
      return block('blockquote', toBlocks(node.children, defs));
    case 'hint':
      return block('hint', toBlocks(node.children, defs), { style: node.style });
    case 'thematicBreak':
      return { object: 'block', type: 'divider', isVoid: true, data: {} };
    case 'table': {
      const rows = node.children.map((row) => block('table-row', row.children.map((cell) => block('table-cell', inlines(cell.children, defs)))));
      return block('table', rows, { alignments: (node.align ?? []).map((a) => a ?? 'none') });
    }
    case 'html':
      // Raw HTML is kept as written (the site renderer sanitizes it); `data.html` says it is not text.
      return block('paragraph', [{ object: 'text', leaves: [leaf(node.value, [])] }], { html: true });
    default:
      // Definitions are resolved into their links; footnotes and front matter are not read.
      return undefined;
  }
}

/** Every definition of the tree (`[id]: url "title"`), by identifier, for reference-style links. */
function definitionsOf(root: Md.Root): Definitions {
  const defs: Definitions = new Map();
  const walk = (node: Md.Node) => {
    if (node.type === 'definition') {
      const def = node as Md.Definition;
      if (!defs.has(def.identifier)) defs.set(def.identifier, def);
    }
    for (const child of (node as Md.Parent).children ?? []) walk(child);
  };
  walk(root);
  return defs;
}

/** The mdast tree of a Markdown text, with GFM. */
export function parseMarkdown(markdown: string): Md.Root {
  return fromMarkdown(markdown, { extensions: [gfm(), hintSyntax()], mdastExtensions: [gfmFromMarkdown(), hintFromMarkdown()] });
}

/** The rich-text document of a Markdown text (blocks without keys). */
export function markdownToDocument(markdown: string): Document {
  const root = parseMarkdown(markdown);
  return { object: 'document', data: { schemaVersion: 1 }, nodes: toBlocks(root.children, definitionsOf(root)) };
}

// ---------------------------------------------------------------------------------------------------
// Document -> Markdown

const wrapperOf: Record<string, 'strong' | 'emphasis' | 'delete'> = { bold: 'strong', italic: 'emphasis', strikethrough: 'delete' };

function leafToMd(l: Leaf): Md.PhrasingContent[] {
  const types = (l.marks ?? []).map((m) => m.type);
  // A soft line break is a newline in a text; a code mark cannot hold one, so the text is split there.
  let node: Md.PhrasingContent = types.includes('code') ? { type: 'inlineCode', value: l.text } : { type: 'text', value: l.text };
  for (const type of [...types].reverse()) {
    const wrapper = wrapperOf[type];
    if (wrapper) node = { type: wrapper, children: [node] } as Md.PhrasingContent;
  }
  return [node];
}

function refUrl(ref: unknown): string {
  const r = ref as { kind?: string; url?: string; page?: string; file?: string; anchor?: string } | undefined;
  if (!r) return '';
  if (r.kind === 'url') return r.url ?? '';
  if (r.kind === 'anchor') return `#${r.anchor ?? ''}`;
  // References to pages and files are written as their ids; links.ts reads them back the same way.
  return r.page ?? r.file ?? '';
}

function inlinesToMd(nodes: Block['nodes'] | Inline['nodes']): Md.PhrasingContent[] {
  const out: Md.PhrasingContent[] = [];
  for (const node of nodes ?? []) {
    if (node.object === 'text') for (const l of node.leaves) out.push(...leafToMd(l));
    else if (node.object === 'inline') {
      const data = (node.data ?? {}) as { ref?: unknown; title?: string; alt?: string; caption?: string };
      if (node.type === 'link') out.push({ type: 'link', url: refUrl(data.ref), title: data.title ?? null, children: inlinesToMd(node.nodes) });
      else if (node.type === 'inline-image') out.push({ type: 'image', url: refUrl(data.ref), alt: data.alt ?? null, title: data.caption ?? null });
      else out.push(...inlinesToMd(node.nodes));
    }
  }
  return out;
}

function childBlocks(b: Block): Block[] {
  return (b.nodes ?? []).filter((n): n is Block => n.object === 'block');
}

function textOfBlock(b: Block): string {
  return (b.nodes ?? []).map((n) => (n.object === 'text' ? n.leaves.map((l) => l.text).join('') : n.object === 'block' ? textOfBlock(n) : '')).join('');
}

function blocksToMd(blocks: Block[]): Md.RootContent[] {
  return blocks.map(blockToMd).filter((n): n is Md.RootContent => n !== undefined);
}

function blockToMd(b: Block): Md.RootContent | undefined {
  const data = (b.data ?? {}) as Record<string, unknown>;
  switch (b.type) {
    case 'paragraph':
      if (data.html === true) return { type: 'html', value: textOfBlock(b) };
      return { type: 'paragraph', children: inlinesToMd(b.nodes) };
    case 'heading-1':
    case 'heading-2':
    case 'heading-3': {
      const level = b.type === 'heading-1' ? 1 : b.type === 'heading-2' ? 2 : typeof data.level === 'number' && data.level >= 3 && data.level <= 6 ? data.level : 3;
      return { type: 'heading', depth: level as Md.Heading['depth'], children: inlinesToMd(b.nodes) };
    }
    case 'list-ordered':
    case 'list-unordered':
    case 'list-tasks': {
      const spread = data.spread === true;
      return {
        type: 'list',
        ordered: b.type === 'list-ordered',
        ...(b.type === 'list-ordered' && { start: typeof data.start === 'number' ? data.start : 1 }),
        spread,
        children: childBlocks(b).map((item) => {
          const checked = (item.data as { checked?: unknown } | undefined)?.checked;
          return {
            type: 'listItem',
            spread,
            checked: typeof checked === 'boolean' ? checked : null,
            children: blocksToMd(item.type === 'list-item' ? childBlocks(item) : [item]) as Md.BlockContent[],
          };
        }),
      };
    }
    case 'code':
      return {
        type: 'code',
        lang: typeof data.syntax === 'string' ? data.syntax : null,
        meta: typeof data.meta === 'string' ? data.meta : null,
        value: childBlocks(b).map(textOfBlock).join('\n'),
      };
    case 'blockquote':
      return { type: 'blockquote', children: blocksToMd(childBlocks(b)) as Md.BlockContent[] };
    case 'hint': {
      // A style outside the public API's enum is written as `info`, the default style.
      const style = hintStyles.includes(data.style as HintStyle) ? (data.style as HintStyle) : 'info';
      return { type: 'hint', style, children: blocksToMd(childBlocks(b)) as Md.BlockContent[] };
    }
    case 'divider':
      return { type: 'thematicBreak' };
    case 'table': {
      const alignments = Array.isArray(data.alignments) ? (data.alignments as string[]) : [];
      return {
        type: 'table',
        align: alignments.map((a) => (a === 'left' || a === 'right' || a === 'center' ? a : null)),
        children: childBlocks(b).map((row) => ({ type: 'tableRow', children: childBlocks(row).map((cell) => ({ type: 'tableCell', children: inlinesToMd(cell.nodes) })) })),
      };
    }
    default: {
      // Blocks Markdown has no syntax for (tabs, embeds, …) keep their blocks, or failing that their text.
      const inner = childBlocks(b);
      if (inner.length > 0) return { type: 'blockquote', children: blocksToMd(inner) as Md.BlockContent[] };
      const text = textOfBlock(b);
      return text === '' ? undefined : { type: 'paragraph', children: [{ type: 'text', value: text }] };
    }
  }
}

/** Markdown for a rich-text document. */
export function documentToMarkdown(document: { nodes: Block[] }): string {
  const root: Md.Root = { type: 'root', children: blocksToMd(document.nodes) };
  return toMarkdown(root, { extensions: [gfmToMarkdown(), hintToMarkdown()], bullet: '-', fences: true, rule: '-', emphasis: '_', strong: '*', listItemIndent: 'one' }).replace(/\n+$/, '');
}
