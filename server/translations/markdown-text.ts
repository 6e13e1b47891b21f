// The translatable text of a page's Markdown, and the Markdown rebuilt with translated text. The Markdown
// is parsed into its syntax tree (mdast, with GFM: tables, task lists, strikethrough, autolinks); only the
// `text` nodes are handed to the translator. Code blocks, inline code, HTML, URLs (of links, images and
// definitions, and autolinked addresses shown as their own text) and the Markdown syntax itself are never
// sent, so a translator cannot change them. The tree is written back with mdast-util-to-markdown, which
// escapes whatever a translator returns that would otherwise read as syntax (a `*` or `[` in a sentence).
// A page whose text nodes all come back unchanged keeps its Markdown byte for byte.
import type { Link, Nodes, Root, Text } from 'mdast';
import { fromMarkdown } from 'mdast-util-from-markdown';
import { gfmFromMarkdown, gfmToMarkdown } from 'mdast-util-gfm';
import { toMarkdown, type Options as WriteOptions } from 'mdast-util-to-markdown';
import { gfm } from 'micromark-extension-gfm';

/** A parsed page: its translatable text nodes, in document order, and how to write it back. */
export interface MarkdownText {
  /** The texts to translate (each without its leading and trailing white space). */
  readonly texts: string[];
  /** The Markdown with `translated[i]` in place of `texts[i]`; the source itself when nothing changed. */
  rebuild(translated: string[]): string;
}

/** Whether a text has anything a translator could change: some letter (not only digits, punctuation or symbols). */
function hasWords(text: string): boolean {
  return /\p{L}/u.test(text);
}

/** The text of a node, as it reads. */
function plain(node: Nodes): string {
  if (node.type === 'text') return node.value;
  return 'children' in node ? node.children.map(plain).join('') : '';
}

/** A link shown as its own address (`<https://…>`, a bare `https://…` or `www.…`, an email address): the text is the URL. */
function isAutolink(link: Link): boolean {
  const shown = plain(link);
  return link.url === shown || link.url === `mailto:${shown}` || link.url === `http://${shown}` || link.url === `https://${shown}`;
}

function collect(node: Nodes, out: Text[]): void {
  if (node.type === 'text') {
    if (hasWords(node.value)) out.push(node);
    return;
  }
  if (node.type === 'link' && isAutolink(node)) return;
  if ('children' in node) for (const child of node.children) collect(child as Nodes, out);
}

/** Splits a text into leading white space, the words, and trailing white space (translators trim). */
function splitSpace(value: string): [string, string, string] {
  const match = /^(\s*)([\s\S]*?)(\s*)$/.exec(value)!;
  return [match[1], match[2], match[3]];
}

const WRITE_OPTIONS: WriteOptions = {
  extensions: [gfmToMarkdown()],
  // The most common choices, so a rewritten page changes as little as possible.
  bullet: '-',
  emphasis: '_',
  strong: '*',
  fences: true,
  rule: '-',
  listItemIndent: 'one',
};

/** Parses a page's Markdown. */
export function markdownText(markdown: string): MarkdownText {
  const tree: Root = fromMarkdown(markdown, { extensions: [gfm()], mdastExtensions: [gfmFromMarkdown()] });
  const nodes: Text[] = [];
  collect(tree, nodes);
  const parts = nodes.map((n) => splitSpace(n.value));
  return {
    texts: parts.map(([, core]) => core),
    rebuild(translated) {
      if (translated.length !== nodes.length) throw new Error(`Expected ${nodes.length} translated texts, got ${translated.length}`);
      if (translated.every((t, i) => t === parts[i][1])) return markdown;
      nodes.forEach((node, i) => {
        const [lead, , trail] = parts[i];
        node.value = `${lead}${translated[i].trim()}${trail}`;
      });
      return toMarkdown(tree, WRITE_OPTIONS);
    },
  };
}
