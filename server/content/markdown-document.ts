// Conversions between GitBook-flavoured Markdown and the rich-text Document, both ways, through the mdast
// syntax tree: mdast-util-from-markdown with GFM (tables, task lists, strikethrough, autolinks), math
// (`$$…$$`, micromark-extension-math) and GitBook's block tags (`{% hint %}`, `{% tabs %}`, `{% embed %}`,
// … markdown-liquid.ts) reads Markdown; mdast-util-to-markdown writes it (escaping included).
//
// The Document is what a page stores (docs/content.md); Markdown is one of its views, written the way
// GitBook's Git Sync writes it: headings (levels 4 to 6 are `heading-3` with `data.level`), paragraphs,
// bold, italic, strikethrough, code, keyboard/superscript/subscript (`<kbd>`, `<sup>`, `<sub>`) and colour
// (`<mark style>`) marks, links and images with their references, inline and block math, lists (ordered
// with start, bullet, tasks; tight or loose), tables with alignment, code blocks (language; title, line
// numbers and wrapping in `{% code %}`), quotes, hints, tabs, steppers, columns, embeds, files, content
// references, updates, expandables (`<details>`), image blocks (`<figure>`), reusable contents
// (`{% include "…" %}`), prompts, conditions (`{% if … %}`), OpenAPI blocks and integrations
// (markdown-liquid-blocks.ts; tag attributes typed in markdown-liquid-attributes.ts), dividers and raw HTML; inline, mentions (`[name](url "mention")`), buttons
// (`<a class="button primary">`), icons (`<i class="fa-…">`) and annotations (footnotes). The HTML GitBook
// writes for what Markdown cannot say is read and written in markdown-html-*.ts: tables with widths, block
// cells or a cards view (-table), figures and `<picture>` light/dark images (-images), colour marks, buttons
// and icons (-inlines), aligned paragraphs and headings, and a plain `<p>` of inlines (-aligned), code with bold lines (-code), hints in list items (-hint), drawings (-drawing), HTML blocks cut at a tag line (-blocks). What Markdown has
// no syntax for (a block's `align`, how many words an annotation covers, …) is only in the Document. Block
// keys are not made here: block-keys.ts gives them.
import type { components } from '../../generated/types.js';
import type { Element, Root as HastRoot, RootContent as HastContent } from 'hast';
import { fromHtml } from 'hast-util-from-html';
import type * as Md from 'mdast';
import { fromMarkdown } from 'mdast-util-from-markdown';
import { gfmFromMarkdown, gfmToMarkdown } from 'mdast-util-gfm';
import { mathFromMarkdown, mathToMarkdown } from 'mdast-util-math';
import { toMarkdown } from 'mdast-util-to-markdown';
import { gfm } from 'micromark-extension-gfm';
import { math } from 'micromark-extension-math';
import { type DocumentBlockShape, type DocumentFragmentShape, type DocumentInlineShape, type DocumentTextShape } from '../../contract/document.js';
import { toTimestamp, upgradeDocument } from './document-upgrade.js';
import { childrenOf } from './document-walk.js';
import { fitBlocks } from './gitbook-nesting.js';
import { explicitHeadingIds, headingIdsOf } from './heading-ids.js';
import { alignedBlock, alignedHtml } from './markdown-html-aligned.js';
import { codeNeedsHtml, preCodeBlock, preCodeHtml } from './markdown-html-code.js';
import { drawingBlock, drawingHtml } from './markdown-html-drawing.js';
import { customHintBlock, customHintHtml } from './markdown-html-hint.js';
import { figuresBlock, figuresHtml, pictureHtml, pictureInline } from './markdown-html-images.js';
import { buttonInline, colorMark, gitbookInlineTag, iconColors, iconInline } from './markdown-html-inlines.js';
import type { HtmlReader, HtmlWriter } from './markdown-html-mdast.js';
import { htmlTableBlock, tableHtml, tableNeedsHtml } from './markdown-html-table.js';
import { codeAttributes, formsOf, readAttributes, tabAttributes, tagRefs, tagsAttribute, updatesAttributes, withForms, withKept, writeAttributes } from './markdown-liquid-attributes.js';
import { liquidTagBlock, liquidTagMarkdown } from './markdown-liquid-blocks.js';
import { hintStyles, liquidFromMarkdown, liquidSyntax, liquidToMarkdown, type HintStyle, type Liquid } from './markdown-liquid.js';
import { defaultRefs, readOtherSpaceReusable, type ContentRefValue, type MarkdownRefs } from './markdown-refs.js';

export type Block = DocumentBlockShape;
export type Inline = DocumentInlineShape;
export type Text = DocumentTextShape;
export type Fragment = DocumentFragmentShape;
export type Leaf = Text['leaves'][number];
export type Mark = Leaf['marks'][number];
export interface Document {
  object: 'document';
  data?: { schemaVersion?: number } & Record<string, unknown>;
  nodes: Block[];
}
type InlineNode = Text | Inline;
/** The Document as the contract publishes it (generated/types.ts): what this module's loose `Document` is, exactly typed. */
export type PublishedDocument = components['schemas']['Document'];
/** A Document as an answer's body: it is GitBook's Document JSON (the writers here and upgradeDocument make it so; test/document-responses.test.ts checks every answer). */
export const published = (document: Document): PublishedDocument => document as unknown as PublishedDocument;

// ---------------------------------------------------------------------------------------------------
// Markdown -> Document

const markOf: Record<string, string> = { strong: 'bold', emphasis: 'italic', delete: 'strikethrough' };
/** The order marks are written in (outermost first) and read back in. */
const MARK_ORDER = ['bold', 'italic', 'strikethrough', 'color', 'keyboard', 'superscript', 'subscript', 'code'];
const htmlMarks: Record<string, string> = { kbd: 'keyboard', sup: 'superscript', sub: 'subscript' };
const htmlTagOf: Record<string, string> = { keyboard: 'kbd', superscript: 'sup', subscript: 'sub' };

const markRank = (m: Mark) => {
  const i = MARK_ORDER.indexOf(m.type);
  return i < 0 ? MARK_ORDER.length : i;
};

function leaf(text: string, marks: Mark[]): Leaf {
  const seen = new Set<string>();
  const unique = marks.filter((m) => !seen.has(m.type) && seen.add(m.type));
  const sorted = unique.sort((a, b) => markRank(a) - markRank(b));
  return { object: 'leaf', text, marks: sorted.map((m) => ({ object: 'mark' as const, type: m.type, ...(m.data !== undefined && { data: m.data }) })) };
}

const mark = (type: string, data?: Record<string, unknown>): Mark => ({ object: 'mark', type, ...(data && { data }) }) as Mark;
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

interface ReadState {
  defs: Definitions;
  refs: MarkdownRefs;
  /** Footnote definitions (`[^1]: …`) by identifier: the bodies of annotations. */
  notes: Map<string, Md.FootnoteDefinition>;
  /** The notes being read (a note that refers to itself is not read again). */
  reading: Set<string>;
}

function inlines(children: Md.PhrasingContent[], state: ReadState, marks: Mark[] = [], out: InlineNode[] = []): InlineNode[] {
  // Marks opened by inline HTML tags (`<kbd>` … `</kbd>`) among these siblings.
  const opened: { tag: string; mark: Mark }[] = [];
  const current = () => [...marks, ...opened.map((o) => o.mark)];
  // A button or an icon opened by its HTML tag, its text gathered up to the closing tag.
  let capture: { tag: 'a' | 'i' | 'button'; open: string; element: Element; text: string; raw: string } | undefined;
  // A `<picture>` (an image with its dark variant), its HTML gathered up to `</picture>`.
  let picture: { raw: string } | undefined;
  const closePicture = (raw: string): boolean => {
    if (!/<\/picture>\s*$/i.test(raw)) return false;
    const image = pictureInline(raw, htmlReader(state));
    if (image) out.push(image);
    else pushLeaf(out, leaf(raw, current()));
    return true;
  };
  for (const node of children) {
    if (picture) {
      picture.raw += node.type === 'html' ? node.value : toString(node);
      if (closePicture(picture.raw)) picture = undefined;
      continue;
    }
    if (capture) {
      if (node.type === 'html' && node.value.toLowerCase() === `</${capture.tag}>`) {
        out.push(capture.tag !== 'i' ? buttonInline(capture.element, capture.text, (url) => state.refs.read(url)) : iconInline(capture.element));
        capture = undefined;
      } else {
        capture.text += toString(node);
        capture.raw += node.type === 'html' ? node.value : toString(node);
      }
      continue;
    }
    switch (node.type) {
      case 'text':
        pushLeaf(out, leaf(node.value, current()));
        break;
      case 'break':
        pushLeaf(out, leaf('\n', current()));
        break;
      case 'inlineCode':
        // CommonMark shows a line ending in a code span as a space (and the writer cannot always keep one).
        pushLeaf(out, leaf(node.value.replace(/\r\n|\r|\n/g, ' '), [...current(), mark('code')]));
        break;
      case 'inlineMath':
        out.push({ object: 'inline', type: 'inline-math', isVoid: true, data: { formula: node.value } });
        break;
      case 'html': {
        if (/^<br\s*\/?>$/i.test(node.value)) {
          pushLeaf(out, leaf('\n', current()));
          break;
        }
        const sized = /^<img\s[^>]*\bdata-size=/i.test(node.value) ? pictureInline(node.value, htmlReader(state)) : undefined;
        if (sized) {
          out.push(sized);
          break;
        }
        if (/^<picture[\s>]/i.test(node.value)) {
          picture = { raw: node.value };
          if (closePicture(picture.raw)) picture = undefined;
          break;
        }
        const tag = gitbookInlineTag(node.value);
        if (tag) {
          capture = { ...tag, open: node.value, text: '', raw: '' };
          break;
        }
        const open = /^<(kbd|sup|sub)>$/i.exec(node.value);
        const close = /^<\/(kbd|sup|sub|mark)>$/i.exec(node.value);
        const color = colorMark(node.value);
        if (open) opened.push({ tag: open[1].toLowerCase(), mark: mark(htmlMarks[open[1].toLowerCase()]) });
        else if (color) opened.push({ tag: 'mark', mark: color });
        else if (close && opened.at(-1)?.tag === close[1].toLowerCase()) opened.pop();
        else pushLeaf(out, leaf(node.value, current()));
        break;
      }
      case 'strong':
      case 'emphasis':
      case 'delete':
        inlines(node.children, state, [...current(), mark(markOf[node.type])], out);
        break;
      case 'link':
      case 'linkReference': {
        const def = node.type === 'linkReference' ? state.defs.get(node.identifier) : undefined;
        const url = node.type === 'link' ? node.url : def?.url;
        if (url === undefined) {
          inlines(node.children, state, current(), out);
          break;
        }
        const title = node.type === 'link' ? node.title : def?.title;
        // GitBook writes a mention as a link titled "mention", its text the target's name.
        if (title === 'mention') {
          out.push({ object: 'inline', type: 'mention', isVoid: true, data: { ref: state.refs.read(url) } });
          break;
        }
        // A link holds text and images: an annotation inside one is its text.
        const nodes = inlines(node.children, state, current()).flatMap((n) => (n.object === 'inline' && n.type === 'annotation' ? (n.nodes ?? []) : [n]));
        out.push({ object: 'inline', type: 'link', isVoid: false, data: { ref: state.refs.read(url), ...(title && { title }) }, nodes });
        break;
      }
      case 'footnoteReference': {
        const note = state.notes.get(node.identifier);
        if (!note || state.reading.has(node.identifier)) {
          pushLeaf(out, leaf(`[^${node.label ?? node.identifier}]`, current()));
          break;
        }
        out.push(annotationInline(out, note, state));
        break;
      }
      case 'image':
      case 'imageReference': {
        const def = node.type === 'imageReference' ? state.defs.get(node.identifier) : undefined;
        const url = node.type === 'image' ? node.url : def?.url;
        if (url === undefined) {
          pushLeaf(out, leaf(node.alt ?? '', current()));
          break;
        }
        const title = node.type === 'image' ? node.title : def?.title;
        out.push({ object: 'inline', type: 'inline-image', isVoid: true, data: { ref: state.refs.read(url), ...(node.alt && { alt: node.alt }), ...(title && { caption: title }) } });
        break;
      }
      default:
        break;
    }
  }
  // A tag never closed is the text it was.
  if (capture) pushLeaf(out, leaf(capture.open + capture.raw, current()));
  if (picture) pushLeaf(out, leaf(picture.raw, current()));
  return out;
}

/** The text of an mdast node (a button's label, an icon's `:name:`). */
function toString(node: Md.Node): string {
  if ('value' in node && typeof node.value === 'string') return node.value;
  return ((node as Md.Parent).children ?? []).map(toString).join('');
}

/** What an annotation's body may hold (GitBook's schema): text blocks, lists, dividers and code; other blocks give their inner blocks. */
const annotationBlockTypes = new Set(['paragraph', 'heading-1', 'heading-2', 'heading-3', 'list-ordered', 'list-unordered', 'list-tasks', 'divider', 'code']);
const annotationBlocks = (blocks: Block[]): Block[] => blocks.flatMap((b) => (annotationBlockTypes.has(b.type) ? [b] : annotationBlocks(childBlocks(b))));

/**
 * The annotation a footnote reference stands for (GitBook writes an annotation as `a claim[^1]` …
 * `[^1]: The source.`): the word right before the reference is the annotated text (taken out of `out`),
 * the footnote's blocks are the annotation's body.
 */
function annotationInline(out: InlineNode[], note: Md.FootnoteDefinition, state: ReadState): Inline {
  const nodes: Text[] = [];
  const last = out.at(-1);
  const lastLeaf = last?.object === 'text' ? last.leaves.at(-1) : undefined;
  const word = lastLeaf ? /\S+$/.exec(lastLeaf.text)?.[0] : undefined;
  if (last?.object === 'text' && lastLeaf && word) {
    const before = lastLeaf.text.slice(0, -word.length);
    if (before === '') last.leaves.pop();
    else last.leaves[last.leaves.length - 1] = { ...lastLeaf, text: before };
    if (last.leaves.length === 0) out.pop();
    nodes.push({ object: 'text', leaves: [{ ...lastLeaf, text: word }] });
  }
  state.reading.add(note.identifier);
  const body = annotationBlocks(toBlocks(note.children, state));
  state.reading.delete(note.identifier);
  const fragments = body.length === 0 ? [] : [{ object: 'fragment' as const, fragment: 'annotation-body', type: 'annotation-body', nodes: body }];
  return { object: 'inline', type: 'annotation', isVoid: false, fragments, nodes } as Inline;
}

function block(type: Block['type'], nodes: Block['nodes'], data?: Block['data']): Block {
  return { object: 'block', type, ...(data && Object.keys(data).length > 0 && { data }), nodes };
}


/** The page's reader, for GitBook's HTML constructs (markdown-html-*.ts). */
const htmlReader = (state: ReadState): HtmlReader => ({ ref: (url) => state.refs.read(url), blocks: (nodes) => toBlocks(nodes, state) });

function textOfHast(node: HastContent | HastRoot): string {
  if (node.type === 'text') return node.value;
  if ('children' in node) return node.children.map((c) => textOfHast(c)).join('');
  return '';
}

// GitBook writes an expandable in several shapes: `<details>` and `<summary>` on consecutive lines (one
// HTML block), or a blank line between them (two HTML blocks), `<details open>`, a summary over several
// lines, and the first content lines right after `</summary>` (in the summary's HTML block).
const detailsStart = /^<details(\s+open(?:=(?:"[^"]*"|'[^']*'|[^\s>]*))?)?\s*>\s*([\s\S]*)$/i;
const summaryPart = /^<summary>([\s\S]*?)<\/summary>[ \t]*(?:\r?\n([\s\S]*))?$/i;
const detailsClosing = /^<\/details>\s*$/i;
const isDetailsStart = (n: Md.RootContent) => n.type === 'html' && /^<details[\s>]/i.test(n.value);

interface DetailsOpening {
  title: string;
  open: boolean;
  /** How many sibling nodes the opening takes (1, or 2 with a blank line before `<summary>`). */
  taken: number;
  /** Markdown after `</summary>` in the same HTML block: the expandable's first lines. */
  rest: string;
}

/** The expandable opening at `nodes[i]`, in any of the shapes above; undefined when there is none. */
function detailsOpeningAt(nodes: Md.RootContent[], i: number): DetailsOpening | undefined {
  const node = nodes[i];
  if (node.type !== 'html') return undefined;
  const start = detailsStart.exec(node.value);
  if (!start) return undefined;
  let summary: RegExpExecArray | null;
  let taken = 1;
  if (start[2].trim() !== '') summary = summaryPart.exec(start[2].trim());
  else {
    const next = nodes[i + 1];
    summary = next?.type === 'html' ? summaryPart.exec(next.value.trim()) : null;
    taken = 2;
  }
  if (!summary) return undefined;
  return { title: textOfHast(fromHtml(summary[1], { fragment: true })).replace(/\s+/g, ' ').trim(), open: start[1] !== undefined, taken, rest: summary[2] ?? '' };
}

/** The blocks of mdast siblings; `<details>` … `</details>` among them become expandable blocks. */
function toBlocks(children: Md.Node[], state: ReadState): Block[] {
  const out: Block[] = [];
  const nodes = children as Md.RootContent[];
  for (let i = 0; i < nodes.length; i++) {
    const node = nodes[i];
    const opening = detailsOpeningAt(nodes, i);
    if (opening) {
      let depth = 1;
      let j = i + opening.taken;
      for (; j < nodes.length; j++) {
        const n = nodes[j];
        if (isDetailsStart(n)) depth++;
        if (n.type === 'html' && detailsClosing.test(n.value) && --depth === 0) break;
      }
      if (j < nodes.length) {
        const first = opening.rest.trim() === '' ? [] : toBlocks(parseMarkdown(opening.rest).children, state);
        const inner = [...first, ...toBlocks(nodes.slice(i + opening.taken, j), state)];
        out.push(block('expandable', inner, { title: opening.title, ...(opening.open && { defaultExpanded: true }) }));
        i = j;
        continue;
      }
    }
    const b = toBlock(node, state);
    if (b) out.push(b);
  }
  return out;
}

/** A GitBook tag's attributes as block data: `true`/`false` of flags as booleans. */
function tagData(attributes: Record<string, string>, flags: string[] = []): Record<string, unknown> {
  const data: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(attributes)) data[k] = flags.includes(k) && (v === 'true' || v === 'false') ? v === 'true' : v;
  return data;
}

function liquidBlock(node: Liquid, state: ReadState): Block | undefined {
  const inner = () => toBlocks(node.children, state);
  const a = node.attributes;
  switch (node.name) {
    case 'tabs':
      return block('tabs', inner());
    case 'tab': {
      const { data, kept } = readAttributes(tabAttributes, a);
      return withKept(block('tabs-item', inner(), data), kept);
    }
    case 'stepper':
      return block('stepper', inner());
    case 'step':
      return block('stepper-step', inner(), tagData(a));
    case 'columns':
      return block('columns', inner(), tagData(a));
    case 'column':
      return block('column', inner(), tagData(a));
    case 'updates': {
      const { data, kept } = readAttributes(updatesAttributes, a);
      return withKept(block('updates', inner(), data), kept);
    }
    case 'update': {
      const { tags, ...rest } = a;
      return block('update', inner(), { ...tagData(rest), ...(tags !== undefined && tagRefs(tags).length > 0 && { tags: tagRefs(tags) }) });
    }
    case 'code': {
      const blocks = inner();
      if (blocks.length !== 1 || blocks[0].type !== 'code') return blocks.length === 1 ? blocks[0] : block('blockquote', blocks);
      const { data, kept } = readAttributes(codeAttributes, a);
      return withKept({ ...blocks[0], data: { ...blocks[0].data, ...data } }, kept);
    }
    case 'content-ref':
      return { object: 'block', type: 'content-ref', isVoid: true, data: { ref: state.refs.read(a.url ?? '') } };
    case 'include': {
      // A target that reads as no reusable content (an id without a repository to resolve it) is its id.
      const path = a.path ?? '';
      const read = readOtherSpaceReusable(path) ?? state.refs.read(path);
      const ref = read.kind === 'reusable-content' ? read : { kind: 'reusable-content' as const, reusableContent: path };
      return { object: 'block', type: 'reusable-content', isVoid: true, data: { ref } };
    }
    case 'embed': {
      const { url = '', ...rest } = a;
      return { object: 'block', type: 'embed', isVoid: true, data: { url, ...tagData(rest, ['fullWidth']) }, ...(node.children.length > 0 && { nodes: inner() }) };
    }
    case 'file': {
      const { src = '', ...rest } = a;
      const ref = state.refs.read(src);
      // GitBook's file block names a file of a space; a `src` that is none (a URL, a path no file is at) is
      // a link to it, its caption (or the URL) as the link's text.
      if (ref.kind !== 'file') {
        const caption = node.children.length > 0 ? inner().flatMap((b) => (b.nodes ?? []).filter((n) => n.object !== 'block')) : [];
        const label = caption.length > 0 ? caption : [{ object: 'text' as const, leaves: [{ object: 'leaf' as const, text: src, marks: [] }] }];
        return block('paragraph', [{ object: 'inline', type: 'link', isVoid: false, data: { ref }, nodes: label as Inline['nodes'] }]);
      }
      return { object: 'block', type: 'file', isVoid: true, data: { ref, ...tagData(rest) }, ...(node.children.length > 0 && { nodes: inner() }) };
    }
    default:
      return liquidTagBlock(node, htmlReader(state));
  }
}

function toBlock(node: Md.RootContent, state: ReadState): Block | undefined {
  switch (node.type) {
    case 'paragraph':
      return block('paragraph', inlines(node.children, state));
    case 'heading': {
      const type = node.depth === 1 ? 'heading-1' : node.depth === 2 ? 'heading-2' : 'heading-3';
      const { children, id } = customAnchor(node.children);
      const heading = block(type, inlines(children, state), node.depth > 3 ? { level: node.depth } : undefined);
      // The others get theirs when the whole page is read (giveHeadingIds).
      return id === undefined ? heading : { ...heading, meta: { id } };
    }
    case 'list': {
      const tasks = node.children.some((item) => typeof item.checked === 'boolean');
      const type = node.ordered ? 'list-ordered' : tasks ? 'list-tasks' : 'list-unordered';
      const items = node.children.map((item) =>
        block('list-item', toBlocks(item.children, state), typeof item.checked === 'boolean' ? { checked: item.checked } : undefined),
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
    case 'math':
      return { object: 'block', type: 'math', isVoid: true, data: { formula: node.value } };
    case 'blockquote':
      return block('blockquote', toBlocks(node.children, state));
    case 'hint':
      return withForms(block('hint', toBlocks(node.children, state), { style: node.style, ...(node.icon !== undefined && { icon: node.icon }) }), node);
    case 'liquid': {
      const b = liquidBlock(node, state);
      // A tag read as another block (a `{% code %}` around no code block, a `{% file %}` of a URL) keeps no forms.
      return b && !['paragraph', 'blockquote'].includes(b.type) && !(node.name === 'code' && b.type !== 'code') ? withForms(b, node) : b;
    }
    case 'thematicBreak':
      return { object: 'block', type: 'divider', isVoid: true, data: {} };
    case 'table': {
      // Read as rows of cells, then made GitBook's table (records, definition, cell fragments) by upgradeDocument.
      const rows = node.children.map((row) => block('table-row' as Block['type'], row.children.map((cell) => block('table-cell' as Block['type'], inlines(cell.children, state)))));
      return block('table', rows, { alignments: (node.align ?? []).map((a) => a ?? 'none') });
    }
    case 'html':
      // Figures are image blocks; other raw HTML is kept as written (the site sanitizes it), `data.html`
      // saying it is not text.
      return preCodeBlock(node.value) ?? customHintBlock(node.value, htmlReader(state)) ?? drawingBlock(node.value, htmlReader(state)) ?? htmlTableBlock(node.value, htmlReader(state)) ?? alignedBlock(node.value, htmlReader(state)) ?? figuresBlock(node.value, htmlReader(state)) ?? block('paragraph', [{ object: 'text', leaves: [leaf(node.value, [])] }], { html: true });
    default:
      // Definitions are resolved into their links, footnotes into annotations where they are referred to; front matter is not read.
      return undefined;
  }
}

/** Every definition of the tree (`[id]: url "title"`), by identifier, for reference-style links; and every footnote (`[^1]: …`). */
function definitionsOf(root: Md.Root): { defs: Definitions; notes: Map<string, Md.FootnoteDefinition> } {
  const defs: Definitions = new Map();
  const notes = new Map<string, Md.FootnoteDefinition>();
  const walk = (node: Md.Node) => {
    if (node.type === 'definition') {
      const def = node as Md.Definition;
      if (!defs.has(def.identifier)) defs.set(def.identifier, def);
    }
    if (node.type === 'footnoteDefinition') {
      const note = node as Md.FootnoteDefinition;
      if (!notes.has(note.identifier)) notes.set(note.identifier, note);
    }
    for (const child of (node as Md.Parent).children ?? []) walk(child);
  };
  walk(root);
  return { defs, notes };
}

const unescapeHtml = (text: string) => text.replace(/&quot;/g, '"').replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');

/**
 * A heading's custom anchor as GitBook's Git Sync writes it, an empty link to itself at the end of the
 * heading (`## Title <a href="#custom" id="custom"></a>`): its id, and the heading's content without it.
 */
function customAnchor(children: Md.PhrasingContent[]): { children: Md.PhrasingContent[]; id?: string } {
  const [open, close] = children.slice(-2);
  if (children.length < 2 || open.type !== 'html' || close.type !== 'html' || !/^<\/a\s*>$/i.test(close.value)) return { children };
  const match = /^<a\s+(?:href="#[^"]*"\s+)?id="([^"]+)"(?:\s+href="#[^"]*")?\s*>$/i.exec(open.value);
  if (!match) return { children };
  const rest = children.slice(0, -2);
  const last = rest.at(-1);
  if (last?.type === 'text') {
    const trimmed = last.value.replace(/\s+$/, '');
    rest.splice(-1, 1, ...(trimmed === '' ? [] : [{ ...last, value: trimmed }]));
  }
  return { children: rest, id: unescapeHtml(match[1]) };
}

const isHeading = (b: Block) => b.type === 'heading-1' || b.type === 'heading-2' || b.type === 'heading-3';

/** A document's headings in page order (inside other blocks and their fragments too). */
function headingsOf(blocks: Block[], out: Block[] = []): Block[] {
  for (const b of blocks) {
    if (b.object !== 'block') continue;
    if (isHeading(b)) out.push(b);
    headingsOf(childrenOf<Block>(b), out);
  }
  return out;
}

/** A heading's anchor: `meta.id` (GitBook's), else a `data.id`. */
function anchorOf(b: Block): string | undefined {
  const id = (b.meta as { id?: unknown } | undefined)?.id ?? (b.data as { id?: unknown } | undefined)?.id;
  return typeof id === 'string' && id !== '' ? id : undefined;
}

/** Gives every heading of a document read from Markdown its anchor in `meta.id` (heading-ids.ts), custom anchors kept. */
function giveHeadingIds(blocks: Block[]): void {
  const headings = headingsOf(blocks);
  const ids = headingIdsOf(headings.map((h) => ({ text: textOfNodes(h.nodes), explicit: (h.meta as { id?: string } | undefined)?.id })));
  headings.forEach((h, i) => (h.meta = { ...h.meta, id: ids[i] }));
}

/** The nodes of a GitBook-flavoured Markdown text before its tags are paired (the rest of an HTML block cut at a tag line). */
export const parseUnpaired = (markdown: string): Md.RootContent[] =>
  fromMarkdown(markdown, {
    extensions: [gfm(), math({ singleDollarTextMath: false }), liquidSyntax()],
    mdastExtensions: [gfmFromMarkdown(), mathFromMarkdown(), liquidFromMarkdown({ pair: false })],
  }).children;

/** The mdast tree of a GitBook-flavoured Markdown text. */
export function parseMarkdown(markdown: string): Md.Root {
  return fromMarkdown(markdown, {
    extensions: [gfm(), math({ singleDollarTextMath: false }), liquidSyntax()],
    mdastExtensions: [gfmFromMarkdown(), mathFromMarkdown(), liquidFromMarkdown({ reparse: parseUnpaired })],
  });
}

/**
 * The rich-text document of a Markdown text (blocks without keys), in GitBook's Document JSON; `refs`
 * reads its link targets. A leading `# heading` whose text is `title` (the page's) is the title, not a block.
 */
export function markdownToDocument(markdown: string, refs: MarkdownRefs = defaultRefs, title?: string): Document {
  const root = parseMarkdown(markdown);
  const nodes = toBlocks(root.children, { ...definitionsOf(root), refs, reading: new Set() });
  if (title !== undefined && nodes[0]?.type === 'heading-1' && textOfNodes(nodes[0].nodes).trim() === title.trim()) nodes.shift();
  // In GitBook's shapes, then nested as GitBook allows (gitbook-nesting.ts): Markdown nests anything in anything.
  const document = upgradeDocument({ object: 'document', data: { schemaVersion: 1 }, nodes });
  const fitted = fitBlocks(document.nodes);
  giveHeadingIds(fitted);
  return { ...document, nodes: fitted };
}

// ---------------------------------------------------------------------------------------------------
// Document -> Markdown

const wrapperOf: Record<string, 'strong' | 'emphasis' | 'delete'> = { bold: 'strong', italic: 'emphasis', strikethrough: 'delete' };

function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

/** A colour name of a mark's data, safe inside a style attribute. */
function colorName(value: unknown): string | undefined {
  return typeof value === 'string' && /^[\w#-]{1,40}$/.test(value) && value !== 'default' ? value : undefined;
}

/**
 * An element for the published site's renderer (mdast-util-to-hast makes an element of `data.hName`): the
 * HTML form of what Markdown writes as raw HTML or a GitBook tag, built as a tree, never as HTML text.
 */
function element(tagName: string, children: Md.RootContent[] | Md.PhrasingContent[], properties?: Record<string, string | boolean | string[]>): Md.RootContent & Md.PhrasingContent {
  return { type: 'siteElement', data: { hName: tagName, ...(properties && { hProperties: properties }) }, children } as unknown as Md.RootContent & Md.PhrasingContent;
}

/** A leaf's text, its line ends hard breaks (GitBook's `\` at the end of a line; `<br>` in its HTML). */
function textWithBreaks(text: string): Md.PhrasingContent[] {
  return text.split('\n').flatMap((value, i): Md.PhrasingContent[] => [...(i > 0 ? [{ type: 'break' as const }] : []), ...(value === '' ? [] : [{ type: 'text' as const, value }])]);
}

function leafToMd(l: Leaf, html = false): Md.PhrasingContent[] {
  const marks = [...(l.marks ?? [])].sort((a, b) => markRank(a) - markRank(b));
  const types = marks.map((m) => m.type);
  let nodes: Md.PhrasingContent[] = types.includes('code') ? [{ type: 'inlineCode', value: l.text }] : textWithBreaks(l.text);
  for (const m of [...marks].reverse()) {
    const wrapper = wrapperOf[m.type];
    const tag = htmlTagOf[m.type];
    if (wrapper) nodes = [{ type: wrapper, children: nodes } as Md.PhrasingContent];
    else if (html && (tag || m.type === 'color')) nodes = [element(tag ?? 'mark', nodes)];
    else if (tag) nodes = [{ type: 'html', value: `<${tag}>` }, ...nodes, { type: 'html', value: `</${tag}>` }];
    else if (m.type === 'color') {
      const data = (m.data ?? {}) as { text?: unknown; background?: unknown };
      const style = [colorName(data.text) && `color:${colorName(data.text)};`, colorName(data.background) && `background-color:${colorName(data.background)};`].filter(Boolean).join('');
      if (style) nodes = [{ type: 'html', value: `<mark style="${style}">` }, ...nodes, { type: 'html', value: '</mark>' }];
    }
  }
  return nodes;
}

/** What the published site knows of an embedded URL (server/embeds): a card, and a player when allowed. */
export interface EmbedCard {
  title: string;
  site: string;
  icon?: string;
  /** The allowed provider's player (an https iframe source on the allow-list), when it has one. */
  frame?: { src: string; title: string };
}

interface WriteState {
  refs: MarkdownRefs;
  /** For the published site's renderer (Markdown read back into its HTML): mentions as chips, which GitBook's Markdown has no form for. */
  site?: boolean;
  /** The footnotes of the annotations written so far (in Markdown, and in the PDF's tree), a body written twice being one footnote. */
  notes?: { definitions: Md.FootnoteDefinition[]; byBody: Map<string, string> };
  /** For the published site (documentToMdast): elements instead of raw HTML and GitBook tags where HTML says it. */
  html?: boolean;
  /** For the published site: what an embed block's URL shows, when it is known. */
  embed?: (url: string) => EmbedCard | undefined;
  /** The anchors written with their heading (GitBook's `<a href="#id" id="id"></a>`): those the anchor rule would not give back, or all. */
  anchors?: Map<Block, string>;
}

/** The anchors a document's Markdown writes (see WriteState.anchors). */
function anchorsToWrite(blocks: Block[], all: boolean): Map<Block, string> {
  const headings = headingsOf(blocks);
  const ids = headings.map(anchorOf);
  const explicit = all ? ids.map((id) => id !== undefined) : explicitHeadingIds(headings.map((h) => textOfNodes(h.nodes)), ids);
  return new Map(headings.flatMap((h, i) => (explicit[i] ? [[h, ids[i]!] as const] : [])));
}

/** An embed as the published site shows it: a card linking to the URL (title, provider, icon), the player above it when allowed. */
function embedCard(url: string, card: EmbedCard): Md.RootContent {
  const link: Md.Link = {
    type: 'link',
    url,
    children: [
      ...(card.icon ? [{ type: 'image', url: card.icon, alt: '' } as Md.Image] : []),
      element('strong', [{ type: 'text', value: card.title }]) as Md.PhrasingContent,
      element('span', [{ type: 'text', value: card.site }], { className: 'embed-site' }) as Md.PhrasingContent,
    ],
  };
  const frame = card.frame ? [element('iframe', [], { src: card.frame.src, title: card.frame.title, loading: 'lazy', allowFullScreen: true })] : [];
  return element('div', [...frame, { type: 'paragraph', children: [link] }] as Md.RootContent[], { className: ['embed', card.frame ? 'embed-rich' : 'embed-link'] });
}

export function textOfNodes(nodes: Block['nodes'] | Inline['nodes']): string {
  return (nodes ?? []).map((n) => (n.object === 'text' ? n.leaves.map((l) => l.text).join('') : textOfNodes(n.nodes))).join('');
}

/**
 * Neighbour nodes of one kind of emphasis as one (`**bold **` `**claim**` as `**bold claim**`): the text of
 * an inline (an annotation's) written apart from the text around it under the same marks.
 */
function mergeWrappers(nodes: Md.PhrasingContent[]): Md.PhrasingContent[] {
  const out: Md.PhrasingContent[] = [];
  for (const node of nodes) {
    const last = out.at(-1);
    if (last && last.type === node.type && (node.type === 'strong' || node.type === 'emphasis' || node.type === 'delete')) {
      out[out.length - 1] = { ...node, children: mergeWrappers([...(last as Md.Strong).children, ...node.children]) } as Md.PhrasingContent;
    } else out.push(node);
  }
  return out;
}

function inlinesToMd(nodes: Block['nodes'] | Inline['nodes'], state: WriteState): Md.PhrasingContent[] {
  const out = mergeWrappers(inlinesOf(nodes, state));
  return state.html ? out : edgeBreaks(out);
}

/**
 * A hard break first or last in its block as `<br>`, as GitBook writes it: Markdown's `\` at the end of a
 * line is a break only between two lines of text.
 */
function edgeBreaks(nodes: Md.PhrasingContent[]): Md.PhrasingContent[] {
  const edge = (node: Md.PhrasingContent | undefined, at: 0 | -1): Md.PhrasingContent | undefined => {
    if (node?.type === 'break') return { type: 'html', value: '<br>' };
    if (node && 'children' in node && node.children.length > 0) {
      const children = [...node.children] as Md.PhrasingContent[];
      const index = at === 0 ? 0 : children.length - 1;
      const inner = edge(children[index], at);
      if (inner) {
        children[index] = inner;
        return { ...node, children } as Md.PhrasingContent;
      }
    }
    return undefined;
  };
  const out = [...nodes];
  const first = edge(out[0], 0);
  if (first) out[0] = first;
  const last = edge(out.at(-1), -1);
  if (last) out[out.length - 1] = last;
  return out;
}

function inlinesOf(nodes: Block['nodes'] | Inline['nodes'], state: WriteState): Md.PhrasingContent[] {
  const out: Md.PhrasingContent[] = [];
  for (const node of nodes ?? []) {
    if (node.object === 'text') for (const l of node.leaves) out.push(...leafToMd(l, state.html));
    else if (node.object === 'inline') {
      const data = (node.data ?? {}) as { ref?: ContentRefValue; title?: string; alt?: string; caption?: string; formula?: string; code?: string; label?: string };
      switch (node.type) {
        case 'mention':
          out.push(...mentionToMd(data.ref, textOfNodes(node.nodes), state));
          break;
        case 'button':
          out.push(...buttonToMd(node, state));
          break;
        case 'icon':
          out.push(...iconToMd(node, state));
          break;
        case 'annotation':
          out.push(...annotationToMd(node, state));
          break;
        case 'link': {
          const children = inlinesToMd(node.nodes, state);
          const plain = state.refs.text?.(data.ref);
          const label = children.length > 0 ? children : [{ type: 'text' as const, value: typeof data.label === 'string' ? data.label : (plain ?? state.refs.label(data.ref)) }];
          // Where references that lead nowhere are text (the published site), such a link is its text.
          if (plain !== undefined) out.push(...label);
          else out.push({ type: 'link', url: state.refs.write(data.ref), title: typeof data.title === 'string' ? data.title : null, children: label });
          break;
        }
        case 'inline-image':
          // A dark variant or a size: GitBook's `<picture>`, `<img data-size>` (Markdown's image has neither).
          if (((node.data as { refDark?: unknown } | undefined)?.refDark || (node.data as { size?: unknown } | undefined)?.size) && !state.html) {
            out.push(html(pictureHtml(node.data as Parameters<typeof pictureHtml>[0], htmlWriter(state))));
            break;
          }
          out.push({ type: 'image', url: state.refs.write(data.ref), alt: typeof data.alt === 'string' ? data.alt : null, title: typeof data.caption === 'string' ? data.caption : null });
          break;
        case 'inline-math':
          out.push({ type: 'inlineMath', value: typeof data.formula === 'string' ? data.formula : '' });
          break;
        case 'emoji': {
          const code = typeof data.code === 'string' && /^[0-9a-f]{1,6}(-[0-9a-f]{1,6})*$/i.test(data.code) ? data.code : undefined;
          const chars = code?.split('-').map((c) => Number.parseInt(c, 16)).filter((c) => c <= 0x10ffff);
          if (chars && chars.length > 0) out.push({ type: 'text', value: String.fromCodePoint(...chars) });
          break;
        }
        default:
          // Expressions: their text (the expression is in the Document).
          out.push(...inlinesToMd(node.nodes, state));
      }
    }
  }
  return out;
}

const html = (value: string): Md.Html => ({ type: 'html', value });

/**
 * A mention: in Markdown, GitBook's link titled "mention" (its text the target's name); on the published
 * site, a chip (`<a class="mention">`, or `<span class="mention">` for a target with no page to go to, a
 * user); where references that lead nowhere are text (the site's Markdown for agents), its name.
 */
function mentionToMd(ref: ContentRefValue, given: string, state: WriteState): Md.PhrasingContent[] {
  const plain = state.refs.text?.(ref);
  // A mention is void in GitBook's schema; text given with one anyway names it where the target has no name here.
  const name = plain ?? (given || state.refs.label(ref));
  if (state.site) {
    const kind = ref?.kind === 'user' || ref?.kind === 'space' || ref?.kind === 'file' ? ref.kind : 'page';
    const open = plain !== undefined ? `<span class="mention" data-mention="${kind}">` : `<a href="${escapeHtml(state.refs.write(ref))}" class="mention" data-mention="${kind}">`;
    return [html(open), { type: 'text', value: name }, html(plain !== undefined ? '</span>' : '</a>')];
  }
  if (plain !== undefined) return [{ type: 'text', value: name }];
  if (state.html) return [{ type: 'link', url: state.refs.write(ref), children: [{ type: 'text', value: name }] }];
  return [{ type: 'link', url: state.refs.write(ref), title: 'mention', children: [{ type: 'text', value: name }] }];
}

/**
 * A button as GitBook writes it, `<a href="…" class="button primary" data-icon="…">Label</a>`; an action button
 * `<button type="button" class="button primary" data-action="ask" data-query="…" data-icon="…">`.
 */
function buttonToMd(node: Inline, state: WriteState): Md.PhrasingContent[] {
  const data = (node.data ?? {}) as { label?: unknown; kind?: unknown; icon?: unknown; ref?: ContentRefValue; action?: { action?: unknown; query?: unknown; slug?: unknown } };
  const label = typeof data.label === 'string' ? data.label : '';
  if (state.html) return data.ref ? [{ type: 'link', url: state.refs.write(data.ref), children: [{ type: 'text', value: label }] }] : [{ type: 'text', value: label }];
  const kind = `class="button ${data.kind === 'secondary' ? 'secondary' : 'primary'}"`;
  const icon = typeof data.icon === 'string' && iconName.test(data.icon) ? [`data-icon="${data.icon}"`] : [];
  let attributes: string[];
  if (data.action && typeof data.action.action === 'string') {
    const action = [`data-action="${escapeHtml(data.action.action)}"`];
    if (typeof data.action.query === 'string') action.push(`data-query="${escapeHtml(data.action.query)}"`);
    if (typeof data.action.slug === 'string') action.push(`data-slug="${escapeHtml(data.action.slug)}"`);
    // GitBook writes an action button as a <button>; the published site's renderer reads the <a> form.
    if (!state.site) return [html(`<button type="button" ${[kind, ...action, ...icon].join(' ')}>`), { type: 'text', value: label }, html('</button>')];
    attributes = [kind, ...icon, ...action];
  } else {
    // A target that leads nowhere on the site: the button's label.
    if (state.refs.text?.(data.ref) !== undefined) return [{ type: 'text', value: label }];
    attributes = [`href="${escapeHtml(state.refs.write(data.ref))}"`, kind, ...icon];
  }
  return [html(`<a ${attributes.join(' ')}>`), { type: 'text', value: label }, html('</a>')];
}

const iconName = /^[a-z0-9-]{1,60}$/;

/** An icon as GitBook writes it: `<i class="fa-github" style="color:$success;">:github:</i>`. */
function iconToMd(node: Inline, state: WriteState): Md.PhrasingContent[] {
  const data = (node.data ?? {}) as { icon?: unknown; color?: unknown };
  if (typeof data.icon !== 'string' || !iconName.test(data.icon) || state.html) return [];
  const color = typeof data.color === 'string' && data.color !== 'default' && iconColors.has(data.color) ? ` style="color:${data.color};"` : '';
  return [html(`<i class="fa-${data.icon}"${color}>`), { type: 'text', value: `:${data.icon}:` }, html('</i>')];
}

/**
 * An annotation as GitBook writes it, a footnote: its text, then `[^n]`, and `[^n]: body` at the end of the
 * page (documentToMarkdown). In HTML (the PDF) and without a body, its text.
 */
function annotationToMd(node: Inline, state: WriteState): Md.PhrasingContent[] {
  const text = inlinesToMd(node.nodes, state);
  const body = (node.fragments ?? []).find((f) => f.type === 'annotation-body' || f.fragment === 'annotation-body')?.nodes ?? [];
  if (!state.notes || body.length === 0) return text;
  const children = blocksToMd(body, state) as Md.BlockContent[];
  const key = JSON.stringify(children);
  let id = state.notes.byBody.get(key);
  if (id === undefined) {
    id = String(state.notes.definitions.length + 1);
    state.notes.byBody.set(key, id);
    state.notes.definitions.push({ type: 'footnoteDefinition', identifier: id, label: id, children });
  }
  return [...text, { type: 'footnoteReference', identifier: id, label: id }];
}

function childBlocks(b: Block): Block[] {
  return (b.nodes ?? []).filter((n): n is Block => n.object === 'block');
}

/**
 * A relative path as GitBook writes it in an HTML attribute, its spaces and parentheses as they are (a
 * Markdown link needs them encoded; the attribute's quotes hold them): decoded unless that would leave a `%`.
 */
function htmlPath(url: string): string {
  if (/^[a-z][a-z0-9+.-]*:/i.test(url) || !url.includes('%')) return url;
  try {
    const decoded = decodeURI(url);
    return decoded.includes('%') ? url : decoded;
  } catch {
    return url;
  }
}

/** The page's writer, for GitBook's HTML constructs (markdown-html-*.ts). */
const htmlWriter = (state: WriteState): HtmlWriter => ({ ref: (ref) => htmlPath(state.refs.write(ref)), label: (ref) => state.refs.label(ref), blocks: (blocks) => blocksToMd(blocks, state) });

function blocksToMd(blocks: Block[], state: WriteState): Md.RootContent[] {
  return blocks.flatMap((b) => {
    const out = blockToMd(b, state);
    // A tag's attributes in the forms they were read in (`lineNumbers=true`, a flag alone).
    const forms = formsOf(b);
    const tag = out[0];
    if (forms && (tag?.type === 'liquid' || tag?.type === 'hint')) tag.forms = { ...tag.forms, ...forms };
    return out;
  });
}

/** Block data as GitBook tag attributes: strings as they are, booleans and numbers as their text. */
function attributesOf(data: Record<string, unknown>, names: string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of names) {
    const v = data[name];
    if (typeof v === 'string' || typeof v === 'boolean' || typeof v === 'number') out[name] = String(v);
  }
  return out;
}

const liquid = (name: Liquid['name'], attributes: Record<string, string>, children: Md.RootContent[]): Md.RootContent =>
  ({ type: 'liquid', name, attributes, children }) as Liquid;

/** An image's caption: the text of its `caption` fragment (or of a legacy `data.caption`). */
function captionOf(image: Block): string | undefined {
  const blocks = fragmentBlocks(image, 'caption');
  if (blocks.length > 0) return blocks.map((p) => textOfNodes(p.nodes)).join(' ');
  const legacy = (image.data as { caption?: unknown } | undefined)?.caption;
  return typeof legacy === 'string' ? legacy : undefined;
}

function figureElement(image: Block, state: WriteState): Md.RootContent {
  const data = { ...(image.data ?? {}), caption: captionOf(image) } as { ref?: ContentRefValue; alt?: unknown; caption?: unknown };
  const img: Md.Image = { type: 'image', url: state.refs.write(data.ref), alt: typeof data.alt === 'string' ? data.alt : '' };
  const caption = typeof data.caption === 'string' && data.caption !== '' ? [element('figcaption', [{ type: 'text', value: data.caption }])] : [];
  return element('figure', [img, ...caption] as Md.RootContent[]);
}

function blockToMd(b: Block, state: WriteState): Md.RootContent[] {
  const data = (b.data ?? {}) as Record<string, unknown>;
  const inner = () => blocksToMd(childBlocks(b), state);
  switch (b.type) {
    case 'paragraph':
      if (data.html === true || b.meta?.html === true) return [{ type: 'html', value: textOfNodes(b.nodes) }];
      const aligned = state.html ? undefined : alignedHtml(b, 0, inlinesToMd(b.nodes, state));
      if (aligned !== undefined) return [{ type: 'html', value: aligned }];
      return [{ type: 'paragraph', children: inlinesToMd(b.nodes, state) }];
    case 'heading-1':
    case 'heading-2':
    case 'heading-3': {
      const level = b.type === 'heading-1' ? 1 : b.type === 'heading-2' ? 2 : typeof data.level === 'number' && data.level >= 3 && data.level <= 6 ? data.level : 3;
      const children = inlinesToMd(b.nodes, state);
      const aligned = state.html ? undefined : alignedHtml(b, level, children);
      if (aligned !== undefined) return [{ type: 'html', value: aligned }];
      const id = state.anchors?.get(b);
      if (id !== undefined) children.push({ type: 'text', value: ' ' }, { type: 'html', value: `<a href="#${escapeHtml(id)}" id="${escapeHtml(id)}">` }, { type: 'html', value: '</a>' });
      return [{ type: 'heading', depth: level as Md.Heading['depth'], children }];
    }
    case 'list-ordered':
    case 'list-unordered':
    case 'list-tasks': {
      const spread = data.spread === true || b.meta?.spread === true;
      return [
        {
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
              // A hint in a list item is GitBook's HTML there (markdown-html-hint.ts).
              children: (item.type === 'list-item' ? childBlocks(item) : [item]).flatMap((c) =>
                c.type === 'hint' && !state.html && !state.site ? [{ type: 'html' as const, value: customHintHtml(c, htmlWriter(state)) }] : blocksToMd([c], state),
              ) as Md.BlockContent[],
            };
          }),
        },
      ];
    }
    case 'code': {
      if (!state.html && !state.site && codeNeedsHtml(b)) return [{ type: 'html', value: preCodeHtml(b) }];
      const code: Md.Code = {
        type: 'code',
        lang: typeof data.syntax === 'string' && data.syntax !== '' ? data.syntax : null,
        meta: typeof data.meta === 'string' ? data.meta : null,
        value: childBlocks(b).map((line) => textOfNodes(line.nodes)).join('\n'),
      };
      const attributes = writeAttributes(codeAttributes, b);
      return Object.keys(attributes).length > 0 && !state.html ? [liquid('code', attributes, [code])] : [code];
    }
    case 'math':
      return [{ type: 'math', value: typeof data.formula === 'string' ? data.formula : '' } as Md.RootContent];
    case 'blockquote':
      return [{ type: 'blockquote', children: inner() as Md.BlockContent[] }];
    case 'hint': {
      // A style outside the public API's enum is written as `info`, the default style.
      const style = hintStyles.includes(data.style as HintStyle) ? (data.style as HintStyle) : 'info';
      const icon = typeof data.icon === 'string' && data.icon !== '' && !state.html ? { icon: data.icon } : {};
      return [{ type: 'hint', style, ...icon, children: inner() as Md.BlockContent[] }];
    }
    case 'divider':
      return [{ type: 'thematicBreak' }];
    case 'table':
      return tableToMd(b, state);
    case 'tabs':
      return [liquid('tabs', {}, inner())];
    case 'tabs-item':
      if (state.html) return [element('section', [{ type: 'paragraph', children: [{ type: 'strong', children: [{ type: 'text', value: typeof data.title === 'string' ? data.title : '' }] }] }, ...inner()])];
      return [liquid('tab', writeAttributes(tabAttributes, b), inner())];
    case 'stepper':
      return [liquid('stepper', {}, inner())];
    case 'stepper-step':
      return [liquid('step', {}, inner())];
    case 'columns':
      return [liquid('columns', {}, inner())];
    case 'column':
      return [liquid('column', typeof data.width === 'number' ? { width: `${data.width}%` } : attributesOf(data, ['width']), inner())];
    case 'updates':
      return [liquid('updates', writeAttributes(updatesAttributes, b), inner())];
    case 'update': {
      // A date at midnight UTC is written as the date Markdown gave.
      const date = typeof data.date === 'string' ? data.date.replace(/T00:00:00(\.000)?Z$/, '') : undefined;
      const tags = tagsAttribute(data.tags);
      return [liquid('update', { ...(date !== undefined && { date }), ...(tags !== undefined && { tags }) }, inner())];
    }
    case 'embed':
      if (state.html) {
        const url = typeof data.url === 'string' ? data.url : '';
        const card = url === '' ? undefined : state.embed?.(url);
        if (card) return [embedCard(url, card), ...inner()];
        return [{ type: 'paragraph', children: [{ type: 'link', url, children: [{ type: 'text', value: url }] }] }, ...inner()];
      }
      return [liquid('embed', { url: typeof data.url === 'string' ? data.url : '', ...attributesOf(data, ['fullWidth']) }, inner())];
    case 'file':
      if (state.html) {
        const link: Md.Link = { type: 'link', url: state.refs.write(data.ref as ContentRefValue), children: [{ type: 'text', value: state.refs.label(data.ref as ContentRefValue) }] };
        return [{ type: 'paragraph', children: [link] }, ...inner()];
      }
      return [liquid('file', { src: state.refs.write(data.ref as ContentRefValue) }, inner())];
    case 'reusable-content':
      // In HTML (the site, the PDF) the reference itself shows nothing; in Markdown it is GitBook's include.
      if (state.html) return [];
      return [liquid('include', { path: state.refs.write(data.ref as ContentRefValue) }, [])];
    case 'content-ref': {
      const url = state.refs.write(data.ref as ContentRefValue);
      const label = state.refs.label(data.ref as ContentRefValue);
      if (state.html) return [{ type: 'paragraph', children: [{ type: 'link', url, children: [{ type: 'text', value: label }] }] }];
      return [liquid('content-ref', { url }, [{ type: 'paragraph', children: [{ type: 'link', url, children: [{ type: 'text', value: label }] }] }])];
    }
    case 'expandable': {
      const titleBlocks = fragmentBlocks(b, 'expandable-title');
      const title = (titleBlocks.length > 0 ? titleBlocks.map((t) => textOfNodes(t.nodes)).join(' ') : typeof data.title === 'string' ? data.title : '').replace(/\s+/g, ' ');
      const inner = () => blocksToMd(b.fragments ? fragmentBlocks(b, 'expandable-body') : childBlocks(b), state);
      if (state.html) return [element('details', [element('summary', [{ type: 'text', value: title }]), ...inner()], data.defaultExpanded === true ? { open: '' } : undefined)];
      return [
        { type: 'html', value: `<details${data.defaultExpanded === true ? ' open' : ''}>\n<summary>${escapeHtml(title)}</summary>` },
        ...inner(),
        { type: 'html', value: '</details>' },
      ];
    }
    case 'images': {
      if (state.html) {
        const figures = childBlocks(b).filter((i) => i.type === 'image').map((i) => figureElement(i, state));
        return figures.length === 0 ? [] : [figures.length === 1 ? figures[0] : element('div', figures)];
      }
      const figures = figuresHtml(b, htmlWriter(state));
      return figures === undefined ? [] : [{ type: 'html', value: figures }];
    }
    case 'image':
      return [state.html ? figureElement(b, state) : { type: 'html', value: figuresHtml(b, htmlWriter(state))! }];
    case 'drawing': {
      const drawing = state.html || state.site ? undefined : drawingHtml(b, htmlWriter(state));
      if (drawing !== undefined) return [{ type: 'html', value: drawing }];
      // On the site, the drawing's SVG as an image.
      const { ref, alt } = data as { ref?: ContentRefValue; alt?: unknown };
      return ref ? [{ type: 'paragraph', children: [{ type: 'image', url: state.refs.write(ref), alt: typeof alt === 'string' ? alt : '' }] }] : [];
    }
    default: {
      // Prompts, conditions, OpenAPI blocks and integrations are GitBook's tags in Markdown
      // (markdown-liquid-blocks.ts); for the published site and the PDF, and for blocks Markdown has no
      // syntax for, their inner blocks, or their text, stand for them.
      const tag = state.html || state.site ? undefined : liquidTagMarkdown(b, htmlWriter(state));
      if (tag) return tag;
      const blocks = childBlocks(b);
      if (blocks.length > 0) return inner();
      const phrasing = inlinesToMd(b.nodes, state);
      return phrasing.length === 0 ? [] : [{ type: 'paragraph', children: phrasing }];
    }
  }
}

/** The blocks of a block's fragment named `name` (`expandable-body`, `caption`, a table cell's id). */
function fragmentBlocks(b: Block, name: string): Block[] {
  return b.fragments?.find((f) => f.fragment === name)?.nodes ?? [];
}

/** The inline content of blocks (a table cell's or a caption's paragraphs). */
function inlinesOfBlocks(blocks: Block[]): Block['nodes'] {
  return blocks.flatMap((n) => (n.nodes ?? []).filter((m) => m.object !== 'block'));
}

interface TableData {
  view?: { columns?: string[] };
  definition?: Record<string, { title?: string; type?: string; textAlignment?: string }>;
  records?: Record<string, { orderIndex: string; values: Record<string, unknown> }>;
}

/** A value of a table cell that is not a text fragment (a number, a checkbox, a reference, …) as Markdown text. */
function cellValueToMd(value: unknown, state: WriteState): Md.PhrasingContent[] {
  if (value === null || value === undefined) return [];
  if (typeof value === 'boolean') return [{ type: 'text', value: value ? '[x]' : '[ ]' }];
  if (typeof value === 'number' || typeof value === 'string') return [{ type: 'text', value: String(value) }];
  if (Array.isArray(value)) return [{ type: 'text', value: value.join(', ') }];
  const ref = ((value as { ref?: unknown }).ref ?? value) as ContentRefValue;
  return [{ type: 'link', url: state.refs.write(ref), children: [{ type: 'text', value: state.refs.label(ref) }] }];
}

/**
 * GitBook's table as a GFM table, column titles as the header row, records in order as rows; in GitBook's
 * HTML form (markdown-html-table.ts) when GFM cannot say it.
 */
function tableToMd(b: Block, state: WriteState): Md.RootContent[] {
  if (!state.html && tableNeedsHtml(b)) {
    return [{ type: 'html', value: tableHtml(b, htmlWriter(state)) }];
  }
  const data = (b.data ?? {}) as TableData;
  const definition = data.definition ?? {};
  const columns = (data.view?.columns ?? Object.keys(definition)).filter((id) => definition[id]);
  if (columns.length === 0) return [];
  const records = Object.values(data.records ?? {}).sort((x, y) => (x.orderIndex < y.orderIndex ? -1 : x.orderIndex > y.orderIndex ? 1 : 0));
  const fragments = new Map((b.fragments ?? []).map((f) => [f.fragment, f.nodes]));
  const cell = (column: string, value: unknown): Md.TableCell => {
    const type = definition[column].type;
    const blocks = typeof value === 'string' && (type === 'text' || type === undefined) ? fragments.get(value) : undefined;
    return { type: 'tableCell', children: blocks ? inlinesToMd(inlinesOfBlocks(blocks), state) : type === 'text' ? [] : cellValueToMd(value, state) };
  };
  return [
    {
      type: 'table',
      align: columns.map((id) => {
        const a = definition[id].textAlignment;
        return a === 'right' || a === 'center' ? a : null;
      }),
      children: [
        { type: 'tableRow', children: columns.map((id) => ({ type: 'tableCell', children: [{ type: 'text', value: definition[id].title ?? '' }] })) },
        ...records.map((r) => ({ type: 'tableRow' as const, children: columns.map((id) => cell(id, r.values[id])) })),
      ],
    },
  ];
}

/**
 * The mdast tree of a document for a renderer of its own (the PDF): references written by `refs`, raw HTML
 * and GitBook tags given as elements (`siteElement` nodes with `data.hName`). `notes`: annotations as
 * footnote references, their bodies as footnote definitions after the blocks (numbered in reading order).
 */
export function documentToMdast(document: { nodes: Block[] }, refs: MarkdownRefs, options: { embed?: WriteState['embed']; notes?: boolean } = {}): Md.Root {
  const state: WriteState = { refs, html: true, ...(options.embed && { embed: options.embed }), ...(options.notes && { notes: { definitions: [], byBody: new Map() } }) };
  const children = blocksToMd(document.nodes, state);
  return { type: 'root', children: [...children, ...(state.notes?.definitions ?? [])] };
}

/**
 * The mdast tree documentToMarkdown writes out as text (the same options). The published site renders it
 * directly (server/published/render-markdown.ts) instead of writing the text and parsing it back.
 */
export function documentToMarkdownTree(document: { nodes: Block[] }, refs: MarkdownRefs = defaultRefs, options: { site?: boolean; allAnchors?: boolean } = {}): Md.Root {
  const state: WriteState = {
    refs,
    ...(options.site && { site: true }),
    notes: { definitions: [], byBody: new Map() },
    anchors: anchorsToWrite(document.nodes, options.allAnchors === true),
  };
  const root: Md.Root = { type: 'root', children: blocksToMd(document.nodes, state) };
  // A note's own notes are numbered as they are written (a note's body is written before its number is given).
  root.children.push(...state.notes!.definitions);
  return root;
}

/**
 * GitBook-flavoured Markdown for a rich-text document; `refs` writes its references as link targets.
 * `site`: for the published site's renderer, which reads the Markdown back (mentions as chips). A heading's
 * anchor is written when reading the Markdown back would not give it (`allAnchors`: always, for the published
 * site, whose renderer takes them as the headings' ids). `bullet`: the bullet lists' marker.
 */
export function documentToMarkdown(document: { nodes: Block[] }, refs: MarkdownRefs = defaultRefs, options: { site?: boolean; allAnchors?: boolean; bullet?: '-' | '*' } = {}): string {
  return toMarkdown(documentToMarkdownTree(document, refs, options), {
    extensions: [gfmToMarkdown(), mathToMarkdown({ singleDollarTextMath: false }), liquidToMarkdown()],
    // `-` (a list right after another takes the other bullet); Git Sync writes GitBook's `*` (git-sync/format/markdown.ts).
    bullet: options.bullet ?? '-',
    fences: true,
    // GitBook's Git Sync writes a divider `***` (every divider of GitBook's own docs repository is); `---`
    // would also open front matter when a page's Markdown starts with a divider.
    rule: '*',
    emphasis: '_',
    strong: '*',
    listItemIndent: 'one',
  }).replace(/\n+$/, '');
}
