// `SUMMARY.md`, the table of contents: `# Table of contents`, then lists of links to the page files
// (nesting is the page tree), `## Heading` opening a group of pages and `---` closing one (the pages after
// it are top-level pages again). Read with the project's Markdown parser (markdown-document.ts
// parseMarkdown) and written with mdast-util-to-markdown, so titles are escaped and read back as text.
import type * as Md from 'mdast';
import { toMarkdown } from 'mdast-util-to-markdown';
import { parseMarkdown } from '../../content/markdown-document.js';
import { formatLimits } from './limits.js';
import { RepositoryFormatError } from './types.js';

export interface SummaryEntry {
  title: string;
  /** The link target as written (relative to SUMMARY.md's folder); undefined for an item with no link. */
  target?: string;
  children: SummaryEntry[];
  /** The line of SUMMARY.md, for warnings. */
  line: number;
}

/** A run of top-level entries: in a group (a heading) or not. */
export interface SummarySection {
  group?: { title: string; line: number };
  entries: SummaryEntry[];
}

function textOf(node: Md.Node): string {
  if ('value' in node && typeof node.value === 'string') return node.value;
  if ('children' in node) return (node as Md.Parent).children.map(textOf).join('');
  return '';
}

function entriesOf(list: Md.List, path: string, depth: number): SummaryEntry[] {
  if (depth > formatLimits.maxDepth) throw new RepositoryFormatError(path, `the table of contents nests deeper than ${formatLimits.maxDepth} levels`);
  const out: SummaryEntry[] = [];
  for (const item of list.children) {
    const paragraph = item.children.find((c): c is Md.Paragraph => c.type === 'paragraph');
    const link = paragraph?.children.find((c): c is Md.Link => c.type === 'link');
    const children = item.children.filter((c): c is Md.List => c.type === 'list').flatMap((l) => entriesOf(l, path, depth + 1));
    out.push({
      title: (link ? textOf(link) : paragraph ? textOf(paragraph) : '').trim(),
      ...(link && { target: link.url }),
      children,
      line: item.position?.start.line ?? 0,
    });
  }
  return out;
}

/** The sections of a SUMMARY.md text. */
export function readSummary(text: string, path: string): SummarySection[] {
  const root = parseMarkdown(text);
  const sections: SummarySection[] = [{ entries: [] }];
  for (const node of root.children) {
    if (node.type === 'heading' && node.depth === 1) continue;
    if (node.type === 'heading') sections.push({ group: { title: textOf(node).trim(), line: node.position?.start.line ?? 0 }, entries: [] });
    else if (node.type === 'thematicBreak') sections.push({ entries: [] });
    else if (node.type === 'list') sections.at(-1)!.entries.push(...entriesOf(node, path, 1));
  }
  return sections.filter((s, i) => i === 0 || s.group || s.entries.length > 0);
}

export interface SummaryItem {
  title: string;
  /** The link target, relative to SUMMARY.md's folder. */
  target: string;
  children: SummaryItem[];
}

function listOf(items: SummaryItem[]): Md.List {
  return {
    type: 'list',
    ordered: false,
    spread: false,
    children: items.map((item) => ({
      type: 'listItem',
      spread: false,
      children: [
        { type: 'paragraph', children: [{ type: 'link', url: item.target, children: [{ type: 'text', value: item.title }] }] },
        ...(item.children.length > 0 ? [listOf(item.children)] : []),
      ],
    })),
  };
}

/** The text of SUMMARY.md for `sections` (a section without a group after a group is opened by `---`). */
export function writeSummary(sections: { group?: string; items: SummaryItem[] }[]): string {
  const children: Md.RootContent[] = [{ type: 'heading', depth: 1, children: [{ type: 'text', value: 'Table of contents' }] }];
  sections.forEach((section, i) => {
    if (section.group !== undefined) children.push({ type: 'heading', depth: 2, children: [{ type: 'text', value: section.group }] });
    else if (i > 0) children.push({ type: 'thematicBreak' });
    if (section.items.length > 0) children.push(listOf(section.items));
  });
  return toMarkdown({ type: 'root', children }, { bullet: '*', listItemIndent: 'one', rule: '-' });
}

/**
 * Whether two SUMMARY.md texts give the same table of contents (groups, titles, link targets, nesting),
 * whatever their Markdown style: an export keeps the branch's own when it says what the export would.
 * A text that cannot be read says nothing the same.
 */
export function sameSummary(a: string, b: string, path: string): boolean {
  const shape = (text: string) => {
    const plain = (entries: SummaryEntry[]): unknown => entries.map((e) => [e.title, e.target?.replace(/^(?:\.\/)+/, ''), plain(e.children)]);
    return JSON.stringify(readSummary(text, path).map((s) => [s.group?.title ?? null, plain(s.entries)]));
  };
  try {
    return shape(a) === shape(b);
  } catch (error) {
    if (error instanceof RepositoryFormatError) return false;
    throw error;
  }
}
