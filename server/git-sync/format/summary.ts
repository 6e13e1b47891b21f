// `SUMMARY.md`, the table of contents: `# Table of contents`, then lists of links to the page files
// (nesting is the page tree; a link's quoted title, `[Page](page.md "Sidebar title")`, is the page's link
// title), `## Heading` opening a group of pages (`## Title <a href="#slug" id="slug"></a>` when the
// group's slug is not its title's, as GitBook writes it) and `***` (any thematic break) closing one (the pages after
// it are top-level pages again). Read with the project's Markdown parser (markdown-document.ts
// parseMarkdown) and written with mdast-util-to-markdown, so titles are escaped and read back as text.
import type * as Md from 'mdast';
import { toMarkdown } from 'mdast-util-to-markdown';
import { slugify } from '../../content/apply-changes.js';
import { parseMarkdown } from '../../content/markdown-document.js';
import { formatLimits } from './limits.js';
import { RepositoryFormatError } from './types.js';

export interface SummaryEntry {
  title: string;
  /** The link target as written (relative to SUMMARY.md's folder); undefined for an item with no link. */
  target?: string;
  /** The link's quoted title (GitBook's page link title, shown in the sidebar). */
  linkTitle?: string;
  children: SummaryEntry[];
  /** The line of SUMMARY.md, for warnings. */
  line: number;
}

/** A run of top-level entries: in a group (a heading) or not. */
export interface SummarySection {
  /** A group: its title, and the id of the anchor GitBook writes after it (the group's slug). */
  group?: { title: string; anchor?: string; line: number };
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
      ...(link?.title != null && { linkTitle: link.title }),
      children,
      line: item.position?.start.line ?? 0,
    });
  }
  return out;
}

/** GitBook's anchor after a group's title: `<a href="#id" id="id"></a>` (or `<a id="id"></a>`). */
const anchorHtml = /^<a\s+(?:href="#([^"]*)"\s+)?id="([^"]*)"\s*>$/i;

/** A group heading's title, without the anchor GitBook writes after it, and that anchor's id. */
function groupHeading(heading: Md.Heading): { title: string; anchor?: string } {
  const children = [...heading.children];
  let anchor: string | undefined;
  const last = children.at(-1);
  const open = children.at(-2);
  if (last?.type === 'html' && /^<\/a>$/i.test(last.value) && open?.type === 'html' && anchorHtml.test(open.value)) {
    anchor = anchorHtml.exec(open.value)![2];
    children.splice(-2);
  } else if (last?.type === 'html') {
    const whole = /^(<a\s[^>]*>)<\/a>$/i.exec(last.value);
    if (whole && anchorHtml.test(whole[1])) {
      anchor = anchorHtml.exec(whole[1])![2];
      children.pop();
    }
  }
  const title = children.map(textOf).join('').trim();
  return { title, ...(anchor !== undefined && anchor !== '' && { anchor }) };
}

/** The sections of a SUMMARY.md text. */
export function readSummary(text: string, path: string): SummarySection[] {
  const root = parseMarkdown(text);
  const sections: SummarySection[] = [{ entries: [] }];
  for (const node of root.children) {
    if (node.type === 'heading' && node.depth === 1) continue;
    if (node.type === 'heading') sections.push({ group: { ...groupHeading(node), line: node.position?.start.line ?? 0 }, entries: [] });
    else if (node.type === 'thematicBreak') sections.push({ entries: [] });
    else if (node.type === 'list') sections.at(-1)!.entries.push(...entriesOf(node, path, 1));
  }
  return sections.filter((s, i) => i === 0 || s.group || s.entries.length > 0);
}

export interface SummaryItem {
  title: string;
  /** The link target, relative to SUMMARY.md's folder. */
  target: string;
  /** Written as the link's quoted title. */
  linkTitle?: string;
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
        { type: 'paragraph', children: [{ type: 'link', url: item.target, title: item.linkTitle ?? null, children: [{ type: 'text', value: item.title }] }] },
        ...(item.children.length > 0 ? [listOf(item.children)] : []),
      ],
    })),
  };
}

/** The text of SUMMARY.md for `sections` (a section without a group after a group is opened by `***`, as GitBook writes it). */
export function writeSummary(sections: { group?: string; anchor?: string; items: SummaryItem[] }[]): string {
  const children: Md.RootContent[] = [{ type: 'heading', depth: 1, children: [{ type: 'text', value: 'Table of contents' }] }];
  sections.forEach((section, i) => {
    if (section.group !== undefined) {
      const id = section.anchor?.replace(/[&"<>]/g, (c) => `&#${c.charCodeAt(0)};`);
      const anchor: Md.PhrasingContent[] = id === undefined ? [] : [{ type: 'text', value: ' ' }, { type: 'html', value: `<a href="#${id}" id="${id}">` }, { type: 'html', value: '</a>' }];
      children.push({ type: 'heading', depth: 2, children: [{ type: 'text', value: section.group }, ...anchor] });
    }
    else if (i > 0) children.push({ type: 'thematicBreak' });
    if (section.items.length > 0) children.push(listOf(section.items));
  });
  return toMarkdown({ type: 'root', children }, { bullet: '*', listItemIndent: 'one', rule: '*' });
}

/** The slugs a group's title gives: this server's, and GitBook's (which spells `&` `and`). */
export const titleSlugs = (title: string) => [slugify(title), slugify(title.replace(/&/g, ' and '))];

/** Whether a group's heading needs GitBook's anchor to say its slug. */
export const groupAnchor = (title: string, slug: string): string | undefined => (titleSlugs(title).includes(slug) ? undefined : slug);

/**
 * Whether two SUMMARY.md texts give the same table of contents (groups and their slugs, titles, link titles, link targets, nesting),
 * whatever their Markdown style: an export keeps the branch's own when it says what the export would.
 * A text that cannot be read says nothing the same.
 */
export function sameSummary(a: string, b: string, path: string): boolean {
  const shape = (sections: SummarySection[], anchors: (boolean | undefined)[]) => {
    const plain = (entries: SummaryEntry[]): unknown => entries.map((e) => [e.title, e.target?.replace(/^(?:\.\/)+/, ''), e.linkTitle ?? null, plain(e.children)]);
    return JSON.stringify(sections.map((s, i) => [s.group?.title ?? null, s.group && anchors[i] ? groupAnchor(s.group.title, s.group.anchor ?? slugify(s.group.title)) : null, plain(s.entries)]));
  };
  try {
    // A group's anchor is compared where `a` has one: without it, `a`'s folder says the group's slug.
    const first = readSummary(a, path);
    const second = readSummary(b, path);
    const anchors = first.map((s) => s.group?.anchor !== undefined);
    return shape(first, anchors) === shape(second, anchors);
  } catch (error) {
    if (error instanceof RepositoryFormatError) return false;
    throw error;
  }
}
