// A code block with formatting, which GitBook's Git Sync writes as HTML because a fenced block cannot say
// it: `<pre class="language-yaml" data-title="openapi.yaml"><code class="lang-yaml">paths:\n<strong>  tags:\n
// </strong></code></pre>`. Read into a `code` block (its syntax, its title and other attributes typed as
// the `{% code %}` tag's are, markdown-liquid-attributes.ts), each line a `code-line` whose text keeps its
// bold, italic and strikethrough marks (a link's text is kept, a code line holds no link in GitBook's
// schema); written back the same way when a line has a mark, each line ended by its line end, a mark that
// reaches the end of a line holding it, as GitBook writes them, built as a tree and serialized by
// hast-util-to-html.
import type { Element, ElementContent } from 'hast';
import { fromHtml } from 'hast-util-from-html';
import { toHtml } from 'hast-util-to-html';
import type { DocumentBlockShape as Block } from '../../contract/document.js';
import { codeAttributes, readAttributes, withKept } from './markdown-liquid-attributes.js';

type Mark = 'bold' | 'italic' | 'strikethrough';
const markOf: Record<string, Mark> = { strong: 'bold', b: 'bold', em: 'italic', i: 'italic', s: 'strikethrough', del: 'strikethrough' };
const tagOf: Record<Mark, string> = { bold: 'strong', italic: 'em', strikethrough: 's' };
const order: Mark[] = ['bold', 'italic', 'strikethrough'];

/** The `data-*` attributes of GitBook's `<pre>`, by the `{% code %}` attribute each stands for. */
const dataAttributes: Record<string, string> = {
  title: 'dataTitle',
  overflow: 'dataOverflow',
  lineNumbers: 'dataLineNumbers',
  fullWidth: 'dataFullWidth',
  expandable: 'dataExpandable',
  collapsedLineCount: 'dataCollapsedLineCount',
};

interface Run {
  text: string;
  marks: Mark[];
}

function runsOf(nodes: ElementContent[], marks: Mark[], out: Run[]): Run[] {
  for (const n of nodes) {
    if (n.type === 'text') out.push({ text: n.value, marks });
    else if (n.type === 'element') {
      const mark = markOf[n.tagName];
      if (n.tagName === 'br') out.push({ text: '\n', marks });
      else runsOf(n.children, mark && !marks.includes(mark) ? [...marks, mark] : marks, out);
    }
  }
  return out;
}

const languageOf = (e: Element) => {
  const classes = Array.isArray(e.properties.className) ? e.properties.className.map(String) : [];
  return classes.map((c) => /^lang(?:uage)?-(.+)$/.exec(c)?.[1]).find((l) => l !== undefined);
};

/** The code block of an HTML block that is one `<pre><code>…</code></pre>`; undefined for any other HTML. */
export function preCodeBlock(html: string): Block | undefined {
  if (!/^\s*<pre[\s>]/i.test(html) || !/<\/pre>\s*$/i.test(html)) return undefined;
  const parts = fromHtml(html, { fragment: true }).children.filter((c) => !(c.type === 'text' && c.value.trim() === ''));
  const pre = parts[0];
  if (parts.length !== 1 || pre.type !== 'element' || pre.tagName !== 'pre') return undefined;
  const inner = pre.children.filter((c) => !(c.type === 'text' && c.value.trim() === ''));
  const code = inner[0];
  if (inner.length !== 1 || code.type !== 'element' || code.tagName !== 'code') return undefined;
  // Lines of runs: the last line end ends the last line, it opens none.
  const lines: Run[][] = [[]];
  for (const run of runsOf(code.children, [], [])) {
    run.text.split('\n').forEach((part, i) => {
      if (i > 0) lines.push([]);
      const line = lines.at(-1)!;
      const last = line.at(-1);
      if (part === '') return;
      if (last && last.marks.length === run.marks.length && last.marks.every((m) => run.marks.includes(m))) last.text += part;
      else line.push({ text: part, marks: run.marks });
    });
  }
  if (lines.length > 1 && lines.at(-1)!.length === 0) lines.pop();
  const nodes = lines.map((runs) => ({
    object: 'block',
    type: 'code-line',
    data: {},
    nodes:
      runs.length === 0
        ? []
        : [{ object: 'text', leaves: runs.map((r) => ({ object: 'leaf', text: r.text, marks: order.filter((m) => r.marks.includes(m)).map((type) => ({ object: 'mark', type })) })) }],
  }));
  const attributes: Record<string, string> = {};
  for (const [name, property] of Object.entries(dataAttributes)) {
    const v = pre.properties[property];
    if (v !== undefined && v !== null) attributes[name] = String(v);
  }
  const { data, kept } = readAttributes(codeAttributes, attributes);
  const syntax = languageOf(pre) ?? languageOf(code);
  return withKept({ object: 'block', type: 'code', data: { ...(syntax && { syntax }), ...data }, nodes } as Block, kept);
}

type Leaf = { text: string; marks?: { type: string }[] };
const leavesOfLine = (line: Block): Leaf[] => (line.nodes ?? []).flatMap((n) => (n.object === 'text' ? n.leaves : []));
const marksOf = (l: Leaf): Mark[] => order.filter((m) => (l.marks ?? []).some((x) => x.type === m));

/** Whether a code block has a marked line, which only GitBook's HTML form says. */
export function codeNeedsHtml(b: Block): boolean {
  return (b.nodes ?? []).some((line) => line.object === 'block' && leavesOfLine(line as Block).some((l) => marksOf(l).length > 0));
}

/** A code block as GitBook's `<pre><code>` (see above). */
export function preCodeHtml(b: Block): string {
  const data = (b.data ?? {}) as Record<string, unknown>;
  const children: ElementContent[] = [];
  for (const line of (b.nodes ?? []).filter((n): n is Block => n.object === 'block')) {
    const leaves = leavesOfLine(line).filter((l) => l.text !== '');
    leaves.forEach((l, i) => {
      const text = i === leaves.length - 1 ? `${l.text}\n` : l.text;
      let node: ElementContent = { type: 'text', value: text };
      for (const mark of [...marksOf(l)].reverse()) node = { type: 'element', tagName: tagOf[mark], properties: {}, children: [node] };
      children.push(node);
    });
    if (leaves.length === 0) children.push({ type: 'text', value: '\n' });
  }
  const syntax = typeof data.syntax === 'string' && data.syntax !== '' ? data.syntax : undefined;
  const properties: Element['properties'] = syntax ? { className: [`language-${syntax}`] } : {};
  for (const [name, property] of Object.entries(dataAttributes)) {
    const v = data[name];
    if (typeof v === 'string' || typeof v === 'boolean' || typeof v === 'number') properties[property] = String(v);
  }
  const code: Element = { type: 'element', tagName: 'code', properties: syntax ? { className: [`lang-${syntax}`] } : {}, children };
  return toHtml({ type: 'element', tagName: 'pre', properties, children: [code] });
}
