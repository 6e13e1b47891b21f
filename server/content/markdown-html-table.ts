// GitBook's tables in HTML, as its Git Sync writes them whenever a GFM table cannot say the table: columns
// with widths (`<th width="200">`) or alignments (`align`, `valign`, on the header and each cell), hidden
// columns (`data-hidden`), columns of another type than text (`data-type="content-ref"`, `image`, `files`;
// select columns, their options in a `<select>`, their cells `<span data-option>`), cells holding blocks (`<td><p>…</p><ul>…</ul></td>`), and the
// cards view (`<table data-view="cards">`, its target and cover columns `data-card-target`,
// `data-card-cover`, `data-card-cover-dark`, its size `data-card-size`). Read into GitBook's `table` block
// (its view, definition, records and a fragment per text cell), written back the same way, the HTML built
// as a tree (hastscript) and serialized by hast-util-to-html, which escapes every value.
import { generateNKeysBetween } from 'fractional-indexing';
import type { Element, RootContent as HastContent } from 'hast';
import { fromHtml } from 'hast-util-from-html';
import { toHtml } from 'hast-util-to-html';
import { h } from 'hastscript';
import type { DocumentBlockShape, DocumentFragmentShape } from '../../contract/document.js';
import { fileName, htmlToMdast, mdastToHtml, type HtmlReader as TableReader, type HtmlWriter as TableWriter } from './markdown-html-mdast.js';
import type { ContentRefValue } from './markdown-refs.js';

type Block = DocumentBlockShape;
type Fragment = DocumentFragmentShape;

interface Option {
  value: string;
  label: string;
  color: string;
}

interface Column {
  id: string;
  title: string;
  type: string;
  multiple?: boolean;
  options?: Option[];
  textAlignment?: string;
  verticalAlignment?: string;
}

interface TableData {
  view: { type: 'grid' | 'cards'; columns: string[]; columnWidths?: Record<string, number>; hideHeader?: boolean; cardSize?: string; targetDefinition?: string; coverDefinition?: string; coverDefinitionDark?: string; hideColumnTitle?: boolean; wrap?: boolean };
  definition: Record<string, Column>;
  records: Record<string, { orderIndex: string; values: Record<string, unknown> }>;
  fullWidth?: boolean;
  search?: boolean;
}

const isElement = (n: HastContent | undefined): n is Element => n?.type === 'element';
const childElements = (e: Element, tag?: string) => e.children.filter((c): c is Element => isElement(c) && (tag === undefined || c.tagName === tag));
const textOf = (n: HastContent): string => (n.type === 'text' ? n.value : n.type === 'element' ? n.children.map(textOf).join('') : '');
const prop = (e: Element, name: string) => e.properties[name];
const flag = (e: Element, name: string) => prop(e, name) !== undefined && prop(e, name) !== false && prop(e, name) !== 'false';
/** Reference column types a cell's HTML is read into (and select); any other (users, rating) is read as text, its text kept. */
const refTypes = new Set(['content-ref', 'image', 'files']);

/** The table of an HTML block that is exactly one `<table>`; undefined for any other HTML. */
export function htmlTableBlock(html: string, read: TableReader): Block | undefined {
  if (!/^\s*<table[\s>]/i.test(html)) return undefined;
  const parts = fromHtml(html, { fragment: true }).children.filter((c) => !(c.type === 'text' && c.value.trim() === ''));
  const table = parts[0];
  if (parts.length !== 1 || !isElement(table) || table.tagName !== 'table') return undefined;
  const head = childElements(table, 'thead')[0];
  const headRow = head && childElements(head, 'tr')[0];
  const body = childElements(table, 'tbody').flatMap((b) => childElements(b, 'tr'));
  const ths = headRow ? childElements(headRow).filter((c) => c.tagName === 'th' || c.tagName === 'td') : [];
  const width = Math.max(ths.length, ...body.map((r) => childElements(r).length));
  if (width === 0) return undefined;
  const cellsOf = (row: Element) => childElements(row).filter((c) => c.tagName === 'td' || c.tagName === 'th');
  const ids = Array.from({ length: width }, (_, i) => `col${i}`);
  const cards = prop(table, 'dataView') === 'cards';
  const view: TableData['view'] = { type: cards ? 'cards' : 'grid', columns: [] };
  const widths: Record<string, number> = {};
  const definition: Record<string, Column> = {};
  ids.forEach((id, i) => {
    const th = ths[i];
    // A select column: its options in a <select> after its title.
    const select = th && childElements(th, 'select')[0];
    const declared = select ? 'select' : th && typeof prop(th, 'dataType') === 'string' ? String(prop(th, 'dataType')) : 'text';
    // A column whose cells do not all read as its type is read as text: nothing of the cells is lost.
    const type = (refTypes.has(declared) || declared === 'select') && body.every((r) => cellValue(declared, cellsOf(r)[i], read) !== invalid) ? declared : 'text';
    const align = th && prop(th, 'align');
    const valign = th && prop(th, 'vAlign');
    definition[id] = {
      id,
      title: th ? th.children.filter((c) => !(isElement(c) && c.tagName === 'select')).map(textOf).join('').trim() : '',
      type,
      ...(type === 'select' && select && { multiple: flag(select, 'multiple'), options: childElements(select, 'option').map(optionOf) }),
      ...(type === 'text' && { textAlignment: align === 'center' || align === 'right' ? align : 'left' }),
      ...(type === 'text' && (valign === 'top' || valign === 'middle' || valign === 'bottom') && { verticalAlignment: valign }),
    };
    if (!th || !flag(th, 'dataHidden')) view.columns.push(id);
    const w = th ? Number(prop(th, 'width')) : Number.NaN;
    if (Number.isFinite(w) && w > 0) widths[id] = w;
    if (th && flag(th, 'dataCardTarget')) view.targetDefinition = id;
    if (th && flag(th, 'dataCardCover')) view.coverDefinition = id;
    if (th && flag(th, 'dataCardCoverDark')) view.coverDefinitionDark = id;
  });
  if (cards) {
    view.cardSize = prop(table, 'dataCardSize') === 'large' ? 'large' : 'medium';
    if (flag(table, 'dataColumnTitleHidden')) view.hideColumnTitle = true;
    if (prop(table, 'dataCardWrap') === 'false') view.wrap = false;
  } else {
    if (Object.keys(widths).length > 0) view.columnWidths = widths;
    view.hideHeader = flag(table, 'dataHeaderHidden');
  }
  const orderKeys = generateNKeysBetween(null, null, body.length);
  const records: TableData['records'] = {};
  const fragments: Fragment[] = [];
  body.forEach((row, r) => {
    const id = `row${r}`;
    const values: Record<string, unknown> = {};
    const cells = cellsOf(row);
    ids.forEach((column, c) => {
      if (definition[column].type === 'text') {
        const fragment = `${id}-${column}`;
        const blocks = read.blocks(htmlToMdast(cells[c]?.children ?? []));
        fragments.push({ object: 'fragment', fragment, nodes: blocks.length > 0 ? blocks : [{ object: 'block', type: 'paragraph', nodes: [] } as unknown as Block] });
        values[column] = fragment;
        return;
      }
      const value = cellValue(definition[column].type, cells[c], read);
      if (value !== undefined && value !== invalid) values[column] = value;
    });
    records[id] = { orderIndex: orderKeys[r], values };
  });
  const data: TableData = { view, definition, records };
  const fullWidth = prop(table, 'dataFullWidth');
  if (fullWidth === 'true' || fullWidth === 'false') data.fullWidth = fullWidth === 'true';
  const search = prop(table, 'dataSearch');
  if (search === 'true' || search === 'false') data.search = search === 'true';
  return { object: 'block', type: 'table', isVoid: true, data, fragments } as unknown as Block;
}

const invalid = Symbol('invalid');

/** An `<option value label color>` of a select column. */
const optionOf = (o: Element): Option => ({ value: String(prop(o, 'value') ?? ''), label: String(prop(o, 'label') ?? textOf(o)), color: String(prop(o, 'color') ?? 'default') });

/** A cell of a reference column, `<a href="…">label</a>`, or of a select column, `<span data-option="…">` (or nothing): its value. */
function cellValue(type: string, cell: Element | undefined, read: TableReader): unknown {
  if (!cell) return undefined;
  const content = cell.children.filter((c) => !(c.type === 'text' && c.value.trim() === ''));
  if (content.length === 0) return undefined;
  if (type === 'select') {
    const spans = content.filter((c): c is Element => isElement(c) && c.tagName === 'span' && typeof prop(c, 'dataOption') === 'string');
    return spans.length === content.length ? spans.map((c) => String(prop(c, 'dataOption'))) : invalid;
  }
  const link = content[0];
  if (content.length !== 1 || !isElement(link) || link.tagName !== 'a' || typeof prop(link, 'href') !== 'string') return invalid;
  const ref = read.ref(String(prop(link, 'href')));
  if (!ref) return invalid;
  if (type === 'content-ref') return ref;
  if (type === 'image') return ref.kind === 'file' || ref.kind === 'url' ? ref : invalid;
  return ref.kind === 'file' ? [ref.file] : invalid;
}

type Data = Omit<Partial<TableData>, 'view'> & { view?: Partial<TableData['view']> };

/** Whether a table needs GitBook's HTML form: anything a GFM table has no syntax for. */
export function tableNeedsHtml(b: Block): boolean {
  const data = (b.data ?? {}) as Data;
  const view: Partial<TableData['view']> = data.view ?? {};
  const definition = data.definition ?? {};
  if (view.type === 'cards' || data.fullWidth !== undefined || data.search !== undefined || view.hideHeader === true) return true;
  if (view.columnWidths && Object.keys(view.columnWidths).length > 0) return true;
  const visible = new Set(view.columns ?? Object.keys(definition));
  const columns = Object.values(definition);
  if (columns.some((c) => !visible.has(c.id) || (c.type !== 'text' && c.type !== undefined) || c.verticalAlignment !== undefined)) return true;
  // A cell of anything but one paragraph of text on one line (blocks, a hard break).
  return (b.fragments ?? []).some((f) => f.nodes.length > 1 || (f.nodes[0] !== undefined && f.nodes[0].type !== 'paragraph') || JSON.stringify(f.nodes).includes('\\n'));
}

/** A table in GitBook's HTML form, one line. */
export function tableHtml(b: Block, write: TableWriter): string {
  const data = (b.data ?? {}) as Data;
  const view: Partial<TableData['view']> = data.view ?? {};
  const definition = data.definition ?? {};
  const visible = (view.columns ?? Object.keys(definition)).filter((id) => definition[id]);
  // Hidden columns after the visible ones, as GitBook writes them.
  const columns = [...visible, ...Object.keys(definition).filter((id) => !visible.includes(id))];
  const records = Object.values(data.records ?? {}).sort((x, y) => (x.orderIndex < y.orderIndex ? -1 : x.orderIndex > y.orderIndex ? 1 : 0));
  const fragments = new Map((b.fragments ?? []).map((f) => [f.fragment, f.nodes]));
  const th = (id: string) => {
    const c = definition[id];
    const width = view.columnWidths?.[id];
    return h(
      'th',
      {
        ...(width !== undefined && { width: String(width) }),
        ...(c.verticalAlignment !== undefined && { vAlign: c.verticalAlignment }),
        ...(c.textAlignment === 'center' || c.textAlignment === 'right' ? { align: c.textAlignment } : {}),
        ...(!visible.includes(id) && { dataHidden: true }),
        ...(view.targetDefinition === id && { dataCardTarget: true }),
        ...(view.coverDefinition === id && { dataCardCover: true }),
        ...(view.coverDefinitionDark === id && { dataCardCoverDark: true }),
        ...(c.type !== 'text' && c.type !== 'select' && c.type !== undefined && { dataType: c.type }),
      },
      [c.title ?? '', ...(c.type === 'select' ? [h('select', { multiple: c.multiple === true }, (c.options ?? []).map((o) => h('option', { value: o.value, label: o.label, color: o.color })))] : [])],
    );
  };
  const td = (id: string, value: unknown) => {
    const type = definition[id].type ?? 'text';
    if (type === 'text') {
      const blocks = typeof value === 'string' ? (fragments.get(value) ?? []) : [];
      const html = mdastToHtml(write.blocks(blocks));
      // One paragraph is written as its inline content, as GitBook writes a cell.
      const only = blocks.length === 1 && html.length === 1 && isElement(html[0]) && html[0].tagName === 'p' ? html[0] : undefined;
      // The column's alignments on each of its cells too, as GitBook writes them.
      const c = definition[id];
      const properties = { ...(c.verticalAlignment !== undefined && { vAlign: c.verticalAlignment }), ...(c.textAlignment === 'center' || c.textAlignment === 'right' ? { align: c.textAlignment } : {}) };
      return h('td', properties, only ? only.children : html);
    }
    if (type === 'select') {
      // Each chosen option's label, a comma between them, as GitBook writes a cell of several.
      const chosen = Array.isArray(value) ? value.map(String) : [];
      const labelOf = (v: string) => definition[id].options?.find((o) => o.value === v)?.label ?? v;
      return h('td', chosen.map((v, i) => h('span', { dataOption: v }, labelOf(v) + (i < chosen.length - 1 ? ', ' : ''))));
    }
    const refs = Array.isArray(value) ? value.map((file) => ({ kind: 'file', file: String(file) }) as ContentRefValue) : value && typeof value === 'object' ? [((value as { ref?: unknown }).ref ?? value) as ContentRefValue] : [];
    return h(
      'td',
      refs.map((ref) => {
        const href = write.ref(ref);
        return h('a', { href }, ref?.kind === 'page' || ref?.kind === 'anchor' ? fileName(href) : write.label(ref));
      }),
    );
  };
  const cards = view.type === 'cards';
  const table = h(
    'table',
    {
      ...(cards && view.cardSize === 'large' && { dataCardSize: 'large' }),
      ...(cards && view.wrap === false && { dataCardWrap: 'false' }),
      ...(cards && view.hideColumnTitle === true && { dataColumnTitleHidden: true }),
      ...(data.fullWidth !== undefined && { dataFullWidth: String(data.fullWidth) }),
      ...(!cards && view.hideHeader === true && { dataHeaderHidden: true }),
      ...(data.search !== undefined && { dataSearch: String(data.search) }),
      ...(cards && { dataView: 'cards' }),
    },
    [h('thead', [h('tr', columns.map(th))]), h('tbody', records.map((r) => h('tr', columns.map((id) => td(id, r.values[id])))))],
  );
  return toHtml(table);
}
