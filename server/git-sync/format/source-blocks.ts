// An edited page written back in its file's own words: the page's file as this server writes it is
// matched, top-level block by top-level block, with the file the branch holds, and every block (and the
// front matter, and the `# Title` line) that reads the same keeps the branch's exact text; only the blocks
// that differ are written in this server's style, with the branch's bullets (`-` when its first list has them;
// this server writes GitBook's `*`) and dividers (`___` when its are; this server writes GitBook's `***`). The text is cut at the top-level nodes of the project's
// Markdown parser (mdast positions; a `{% tag %}` pair and a `<details>` element are one piece each), each
// piece read alone into Document blocks (markdown-document.ts) and compared without keys, aligned by a
// longest common subsequence (node-diff3). The result is kept only when it reads exactly as this server's
// own text does (front matter, title, blocks); else the branch's pieces beside an added or removed one are
// written as this server writes them too, and checked again; else the page is written as this server writes it.
import type * as Md from 'mdast';
import { diffIndices } from 'node-diff3';
import { stableJson } from '../../content/block-keys.js';
import { markdownToDocument, parseMarkdown } from '../../content/markdown-document.js';
import { defaultRefs, type MarkdownRefs } from '../../content/markdown-refs.js';
import { readFrontMatter } from './front-matter.js';
import { readTitle } from './title.js';
import { RepositoryFormatError } from './types.js';

/** A top-level piece of a body: its text, and what comes before it (blank lines). */
interface Piece {
  text: string;
  gap: string;
  /** What the piece reads as alone (with the body's definitions), without keys; its text when it reads as no block. */
  signature: string;
}

interface Body {
  pieces: Piece[];
  /** What follows the last piece (the final line end). */
  tail: string;
}

const definitionTypes = new Set(['definition', 'footnoteDefinition']);

/** Where a top-level node's text ends: a tag pair's closing tag is not among its positions, it is found after its content. */
function endOf(node: Md.Node, text: string): number {
  let end = node.position!.end.offset!;
  const visit = (n: Md.Node) => {
    end = Math.max(end, n.position?.end.offset ?? 0);
    if ('children' in n) for (const c of (n as Md.Parent).children) visit(c);
  };
  visit(node);
  const name = node.type === 'hint' ? 'hint' : node.type === 'liquid' ? (node as unknown as { name: string }).name : undefined;
  if (name) {
    const closing = new RegExp(`^[ \\t]*\\r?\\n?(?:[ \\t]*\\r?\\n)*[ \\t]*\\{%-?\\s*end${name}\\s*-?%\\}`).exec(text.slice(end));
    if (closing) end += closing[0].length;
  }
  return end;
}

/** The pieces of a body: its top-level nodes, a `<details>` element's opening, content and closing together. */
function piecesOf(text: string, refs: MarkdownRefs): Body {
  const nodes = parseMarkdown(text).children;
  const spans: { start: number; end: number; definition: boolean }[] = [];
  let details = 0;
  for (const node of nodes) {
    const start = node.position!.start.offset!;
    const end = endOf(node, text);
    const html = node.type === 'html' ? node.value : '';
    const inside = details > 0;
    details += (html.match(/<details[\s>]/gi) ?? []).length - (html.match(/<\/details>/gi) ?? []).length;
    if (details < 0) details = 0;
    if (inside && spans.length > 0) spans.at(-1)!.end = Math.max(spans.at(-1)!.end, end);
    else spans.push({ start, end, definition: definitionTypes.has(node.type) });
  }
  const definitions = spans.filter((s) => s.definition).map((s) => text.slice(s.start, s.end)).join('\n\n');
  let at = 0;
  const pieces = spans.map((s) => {
    const piece = text.slice(s.start, s.end);
    const read = markdownToDocument(definitions ? `${piece}\n\n${definitions}\n` : piece, refs).nodes;
    const signature = read.length === 0 ? `text:${piece}` : stableJson(read, true);
    const out = { text: piece, gap: text.slice(at, s.start), signature };
    at = s.end;
    return out;
  });
  return { pieces, tail: text.slice(at) };
}

/** One piece of the result: the branch's (`from`) or this server's (`to`); a branch piece that reads as one of this server's names it (`pair`). */
interface Placed {
  side: 'from' | 'to';
  index: number;
  pair?: number;
}

/** The pieces of the result in order: the branch's where they read the same as this server's, this server's elsewhere; branch pieces that read as no block stay. */
function aligned(from: Body, to: Body): Placed[] {
  const order: Placed[] = [];
  let i = 0;
  let j = 0;
  const same = (count: number) => {
    for (let k = 0; k < count; k++) order.push({ side: 'from', index: i++, pair: j++ });
  };
  for (const change of diffIndices(from.pieces.map((p) => p.signature), to.pieces.map((p) => p.signature))) {
    same(change.buffer1[0] - i);
    for (let k = 0; k < change.buffer1[1]; k++, i++) if (from.pieces[i].signature.startsWith('text:')) order.push({ side: 'from', index: i });
    for (let k = 0; k < change.buffer2[1]; k++) order.push({ side: 'to', index: j++ });
  }
  same(from.pieces.length - i);
  return order;
}

/**
 * `order` where a branch piece that no longer has its own neighbours (a piece was added or removed beside
 * it) is this server's instead: Markdown joins some neighbours (two lists of the same bullet), and this
 * server writes neighbours that stay apart.
 */
function guarded(order: Placed[], from: Body): Placed[] {
  const own = (o: Placed | undefined, index: number) => (o === undefined ? index < 0 || index >= from.pieces.length : o.side === 'from' && o.index === index);
  return order.map((o, n) => (o.side === 'from' && o.pair !== undefined && !(own(order[n - 1], o.index - 1) && own(order[n + 1], o.index + 1)) ? { side: 'to', index: o.pair } : o));
}

/** The text of `order`'s pieces, each after the blank lines its side had before it when it follows its own neighbour. */
function assembled(order: Placed[], from: Body, to: Body): string {
  if (order.length === 0) return to.tail;
  let out = '';
  order.forEach((o, n) => {
    const body = o.side === 'from' ? from : to;
    const previous = order[n - 1];
    const follows = previous ? previous.side === o.side && previous.index === o.index - 1 : o.index === 0;
    out += (follows ? body.pieces[o.index].gap : n === 0 ? '' : '\n\n') + body.pieces[o.index].text;
  });
  const last = order.at(-1)!;
  const ending = last.side === 'from' ? from : to;
  return out + (last.index === ending.pieces.length - 1 ? ending.tail : '\n');
}

/** The offsets of the markers of every bullet list item in `text` (nested ones and those in tags included). */
function bulletMarkers(text: string): number[] {
  const out: number[] = [];
  const visit = (node: Md.Node) => {
    if (node.type === 'list' && !(node as Md.List).ordered) for (const item of (node as Md.List).children) if (item.position?.start.offset !== undefined) out.push(item.position.start.offset);
    if ('children' in node) for (const c of (node as Md.Parent).children) visit(c);
  };
  visit(parseMarkdown(text));
  return out.filter((at) => text[at] === '-' || text[at] === '*');
}

/** The spans of every divider (thematic break) of `text`. */
function dividers(text: string): { start: number; end: number }[] {
  const out: { start: number; end: number }[] = [];
  const visit = (node: Md.Node) => {
    if (node.type === 'thematicBreak' && node.position?.start.offset !== undefined && node.position.end.offset !== undefined) out.push({ start: node.position.start.offset, end: node.position.end.offset });
    if ('children' in node) for (const c of (node as Md.Parent).children) visit(c);
  };
  visit(parseMarkdown(text));
  return out;
}

/**
 * `text` (this server's, which writes GitBook's `*` bullets, `-` for a list right after another, and `***`
 * dividers: markdown.ts) in the style of `source`: its bullets when its first list's differs from this text's
 * first (`-` and `*` swapped, so neighbour lists stay apart), and its first divider's text for every divider
 * when that is `*` or `_` (a `---` could turn the line above into a heading in a tight list item).
 */
function inSourceStyle(text: string, source: string): string {
  let out = text;
  const first = bulletMarkers(source)[0];
  const ours = bulletMarkers(out)[0];
  if (first !== undefined && ours !== undefined && source[first] !== out[ours]) {
    // mdast offsets count UTF-16 code units, as split('') does.
    const units = out.split('');
    for (const at of bulletMarkers(out)) units[at] = units[at] === '-' ? '*' : '-';
    out = units.join('');
  }
  const rule = dividers(source)[0];
  const ruleText = rule && source.slice(rule.start, rule.end);
  if (ruleText && /^(?:\*\s*){3,}$|^(?:_\s*){3,}$/.test(ruleText)) for (const d of dividers(out).reverse()) out = out.slice(0, d.start) + ruleText + out.slice(d.end);
  return out;
}

/** A page file's parts: front matter (text and what it says), the title line (text and title), the body. */
function partsOf(text: string, path: string) {
  const { data, body } = readFrontMatter(text, path);
  const { title, rest } = readTitle(body);
  return { front: text.slice(0, text.length - body.length), data: stableJson(data), heading: body.slice(0, body.length - rest.length), title, rest };
}

/** What a body reads as (the Document an import makes of it, keys aside). */
const readBody = (body: string, refs: MarkdownRefs) => stableJson(markdownToDocument(body, refs).nodes, true);

/**
 * The text of a page's file that says what `ours` (the file as this server writes it) says, in the words
 * of `source` (the branch's file at its path) wherever they say the same. `ours` when nothing can be kept.
 * `refs` reads link targets as the import does (format/refs.ts writtenReadRefs), so that a link written
 * otherwise to the same page or file (`guide/` for `guide/README.md`, a path not percent-encoded) is the same.
 */
export function keepSourceText(source: string, ours: string, path: string, refs: MarkdownRefs = defaultRefs): string {
  try {
    const from = partsOf(source, path);
    const to = partsOf(ours, path);
    const front = from.data === to.data ? from.front : to.front;
    // A title changed is its line changed: the blank lines after it stay the branch's.
    const line = (heading: string) => heading.replace(/(?:\r?\n[ \t]*)*$/, '');
    const heading = from.title === undefined ? to.heading : from.title === to.title ? from.heading : line(to.heading) + from.heading.slice(line(from.heading).length);
    const reads = (text: string) => {
      const again = partsOf(text, path);
      return again.data === to.data && again.title === to.title && readBody(again.rest, refs) === readBody(to.rest, refs);
    };
    const fromBody = piecesOf(from.rest, refs);
    const toBody = piecesOf(inSourceStyle(to.rest, from.rest), refs);
    const order = aligned(fromBody, toBody);
    // Every piece that reads the same kept; else only those that keep their own neighbours; else none.
    for (const kept of [() => order, () => guarded(order, fromBody)]) {
      const text = front + heading + assembled(kept(), fromBody, toBody);
      if (text === ours || reads(text)) return text;
    }
    return ours;
  } catch (error) {
    // The branch's file is not one this format reads (front matter never closed, …): it is replaced.
    if (error instanceof RepositoryFormatError) return ours;
    throw error;
  }
}
