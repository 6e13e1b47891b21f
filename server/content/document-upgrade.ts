// Documents in the shapes this server stored before it spoke GitBook's Document JSON, rewritten into
// GitBook's (contract/document.ts): leaves get `marks: []`, blocks and inlines the `isVoid` and `data`
// GitBook fixes per type, a table's `table-row`/`table-cell` children become its `definition` (the header
// row's text as column titles, alignments kept), `records` (in order) and cell `fragments`, an
// expandable's `data.title` and children its `expandable-title`/`expandable-body` fragments, an image's
// `data.caption` its `caption` fragment, a column's `"50%"` width the number 50, an update's date a
// timestamp, and what Markdown said that GitBook's `data` has no key for (a raw HTML paragraph, a loose
// list) moves to the block's `meta`. Nothing is dropped. A document already in GitBook's shapes comes back
// as the same object (the read path calls this on every stored Document), so the rewrite is idempotent.
import { generateNKeysBetween } from 'fractional-indexing';
import { voidBlockTypes, voidInlineTypes } from '../../contract/document.js';
import type { Block, Document, Fragment, Inline, Leaf, Text } from './markdown-document.js';

type Node = Block | Inline | Text;
type Data = Record<string, unknown>;

/** Data GitBook requires, by block type, when a block has none (`undefined`: `data` may be absent). */
const requiredData: Record<string, () => Data> = {
  'heading-1': () => ({}),
  'heading-2': () => ({}),
  'heading-3': () => ({}),
  'list-ordered': () => ({}),
  divider: () => ({}),
  'code-line': () => ({}),
  code: () => ({}),
  images: () => ({}),
  'tabs-item': () => ({}),
  'stepper-step': () => ({}),
  columns: () => ({}),
  column: () => ({}),
  updates: () => ({ format: 'full' }),
  drawing: () => ({}),
  expandable: () => ({}),
};
/** Blocks whose `data` GitBook closes: the keys it allows (others move to `meta`). */
const closedData: Record<string, string[]> = {
  paragraph: ['align'],
  'list-unordered': [],
  'list-tasks': [],
  blockquote: [],
  tabs: ['fullWidth'],
  stepper: [],
  column: ['width', 'verticalAlignment'],
  expandable: ['defaultExpanded'],
  updates: ['format'],
};
/** Blocks whose `isVoid` GitBook requires to be present. */
const isVoidRequired = new Set(['images', 'columns']);

const EPOCH = '1970-01-01T00:00:00.000Z';

/** A date as GitBook's `Timestamp` (RFC 3339 date-time); a bare date is midnight UTC. */
export function toTimestamp(value: unknown): string {
  if (typeof value !== 'string') return EPOCH;
  if (/^\d{4}-\d{2}-\d{2}T/.test(value) && !Number.isNaN(Date.parse(value))) return value;
  const ms = Date.parse(/^\d{4}-\d{2}-\d{2}$/.test(value) ? `${value}T00:00:00.000Z` : value);
  // A date that reads as none is kept in `meta.date` (upgradeBlock) and written back from there.
  return Number.isNaN(ms) ? EPOCH : new Date(ms).toISOString();
}

const leafUpgraded = (l: Leaf): Leaf => (Array.isArray(l.marks) && l.marks.every((m) => m.object === 'mark') ? l : { ...l, marks: (l.marks ?? []).map((m) => ({ ...m, object: 'mark' as const })) });

function upgradeText(t: Text): Text {
  const leaves = t.leaves.map(leafUpgraded);
  return leaves.every((l, i) => l === t.leaves[i]) ? t : { ...t, leaves };
}

function upgradeNodes<T extends Node>(nodes: T[] | undefined): T[] | undefined {
  if (!nodes) return nodes;
  let changed = false;
  const out = nodes.map((n) => {
    const u = upgradeNode(n) as T;
    if (u !== n) changed = true;
    return u;
  });
  return changed ? out : nodes;
}

function upgradeNode(node: Node): Node {
  if (node.object === 'text') return upgradeText(node);
  if (node.object === 'inline') return upgradeInline(node);
  return upgradeBlock(node);
}

function upgradeInline(inline: Inline): Inline {
  let out = inline;
  const nodes = upgradeNodes(inline.nodes);
  if (nodes !== inline.nodes) out = { ...out, nodes };
  const isVoid = voidInlineTypes.has(inline.type);
  if (inline.isVoid !== isVoid && (isVoid || inline.isVoid !== undefined || inline.type === 'annotation')) out = { ...out, isVoid };
  if (inline.type === 'link' && !out.nodes) out = { ...out, nodes: [] };
  if (inline.type === 'annotation' && !out.fragments) out = { ...out, fragments: [], nodes: out.nodes ?? [] };
  return out;
}

const textNode = (text: string): Text => ({ object: 'text', leaves: [{ object: 'leaf', text, marks: [] }] });
const paragraph = (nodes: Block['nodes']): Block => ({ object: 'block', type: 'paragraph', isVoid: false, data: {}, nodes: nodes ?? [] });

/** A legacy table (`table-row` of `table-cell` children, `data.alignments`) as GitBook's table. */
function upgradeTable(table: Block): Block {
  const data = (table.data ?? {}) as Data;
  if (data.records && data.definition && data.view) return table.fragments ? table : { ...table, fragments: [] };
  const rows = (table.nodes ?? []).filter((n): n is Block => n.object === 'block');
  const header = rows[0];
  const headerCells = (header?.nodes ?? []).filter((n): n is Block => n.object === 'block');
  const width = Math.max(headerCells.length, ...rows.map((r) => (r.nodes ?? []).length));
  const alignments = Array.isArray(data.alignments) ? (data.alignments as unknown[]) : [];
  const columns = Array.from({ length: width }, (_, i) => `col${i}`);
  const definition: Data = {};
  columns.forEach((id, i) => {
    const align = alignments[i];
    const title = headerCells[i] ? textOf(cellInlines(headerCells[i])) : '';
    definition[id] = { id, title, type: 'text', textAlignment: align === 'center' || align === 'right' ? align : 'left' };
  });
  const body = rows.slice(1);
  const orderKeys = generateNKeysBetween(null, null, body.length);
  const records: Data = {};
  const fragments: Fragment[] = [];
  body.forEach((row, r) => {
    const id = `row${r}`;
    const values: Data = {};
    // Every column has a cell, empty where the row is short: Markdown writes a short row's missing cells as
    // empty ones, which read back as empty cells, so the Document is the same before and after.
    columns.forEach((column, c) => {
      const cell = (row.nodes ?? [])[c];
      const fragment = `${id}-${column}`;
      values[column] = fragment;
      fragments.push({ object: 'fragment', fragment, nodes: [upgradeBlock(paragraph(cell?.object === 'block' ? cellInlines(cell) : []))] });
    });
    records[id] = { orderIndex: orderKeys[r], values };
  });
  const { alignments: _alignments, ...rest } = data;
  const { nodes: _nodes, ...block } = table;
  return { ...block, isVoid: true, data: { ...rest, view: { type: 'grid', columns, hideHeader: header === undefined }, definition, records }, fragments };
}

/** A legacy table cell's inline content: its own inlines, or those of the paragraphs it holds. */
function cellInlines(cell: Block): NonNullable<Block['nodes']> {
  const nodes = cell.nodes ?? [];
  return nodes.flatMap((n) => (n.object === 'block' ? (n.nodes ?? []).filter((m) => m.object !== 'block') : [n]));
}

function textOf(nodes: Block['nodes']): string {
  return (nodes ?? []).map((n) => (n.object === 'text' ? n.leaves.map((l) => l.text).join('') : textOf(n.nodes as Block['nodes']))).join('');
}

/** A legacy expandable (`data.title`, children) as GitBook's (title and body fragments). */
function upgradeExpandable(b: Block): Block {
  if (b.fragments) return b;
  const { title, ...data } = (b.data ?? {}) as Data;
  const body = (b.nodes ?? []).filter((n): n is Block => n.object === 'block');
  const fragments: Fragment[] = [{ object: 'fragment', fragment: 'expandable-title', type: 'expandable-title', nodes: [paragraph(typeof title === 'string' && title !== '' ? [textNode(title)] : [])] }];
  if (body.length > 0) fragments.push({ object: 'fragment', fragment: 'expandable-body', type: 'expandable-body', nodes: body });
  const { nodes: _nodes, ...rest } = b;
  return { ...rest, data, fragments };
}

/** A legacy image (`data.caption`) as GitBook's (a `caption` fragment). */
function upgradeImage(b: Block): Block {
  if (b.fragments) return b;
  const { caption, ...data } = (b.data ?? {}) as Data;
  const fragments: Fragment[] = typeof caption === 'string' && caption !== '' ? [{ object: 'fragment', fragment: 'caption', nodes: [paragraph([textNode(caption)])] }] : [];
  return { ...b, data, fragments };
}

function upgradeBlock(input: Block): Block {
  let b = input;
  if (b.type === ('table' as Block['type'])) b = upgradeTable(b);
  else if (b.type === 'expandable') b = upgradeExpandable(b);
  else if (b.type === 'image') b = upgradeImage(b);

  const data = (b.data ?? undefined) as Data | undefined;
  let nextData = data;
  if (b.type === 'column' && typeof data?.width === 'string') {
    const width = Number.parseFloat(data.width);
    nextData = { ...data, width: Number.isFinite(width) ? width : 100 };
  }
  if (b.type === 'update' && (typeof data?.date !== 'string' || toTimestamp(data.date) !== data.date)) nextData = { ...nextData, date: toTimestamp(data?.date) };
  if (!nextData && requiredData[b.type]) nextData = requiredData[b.type]();
  const allowed = closedData[b.type];
  let meta = b.meta;
  if (allowed && nextData) {
    const extra = Object.keys(nextData).filter((k) => !allowed.includes(k));
    if (extra.length > 0) {
      meta = { ...meta, ...Object.fromEntries(extra.map((k) => [k, nextData![k]])) };
      nextData = Object.fromEntries(Object.entries(nextData).filter(([k]) => allowed.includes(k)));
    }
  }
  if (nextData !== data || meta !== b.meta) b = { ...b, ...(nextData !== undefined && { data: nextData }), ...(meta !== undefined && { meta }) };

  const isVoid = voidBlockTypes.has(b.type);
  if (b.isVoid !== isVoid && (isVoid || b.isVoid !== undefined || isVoidRequired.has(b.type))) b = { ...b, isVoid };
  if (!isVoid && !b.nodes) b = { ...b, nodes: [] };

  const nodes = upgradeNodes(b.nodes);
  if (nodes !== b.nodes) b = { ...b, nodes };
  if (b.fragments) {
    let changed = false;
    const fragments = b.fragments.map((f) => {
      const fn = upgradeNodes(f.nodes);
      if (fn === f.nodes) return f;
      changed = true;
      return { ...f, nodes: fn! };
    });
    if (changed) b = { ...b, fragments };
  }
  return b;
}

/** The document in GitBook's shapes; the same object when it already is. */
export function upgradeDocument<D extends Document>(document: D): D {
  const nodes = upgradeNodes(document.nodes as Block[]) as Block[];
  const data = document.data ?? {};
  if (nodes === document.nodes && document.data) return document;
  return { ...document, data, nodes };
}

/** Blocks in GitBook's shapes; the same array when they already are. */
export function upgradeBlocks(blocks: Block[]): Block[] {
  return upgradeNodes(blocks) as Block[];
}
