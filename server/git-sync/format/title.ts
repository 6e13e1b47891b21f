// A page's title as the first line of its file, `# Title`, as GitBook writes it: written as a Markdown
// heading (mdast-util-to-markdown escapes it) and read back as that heading's text.
import type * as Md from 'mdast';
import { toMarkdown } from 'mdast-util-to-markdown';
import { parseMarkdown } from '../../content/markdown-document.js';

/** The heading line of a title. */
export function writeTitle(title: string): string {
  const heading: Md.Heading = { type: 'heading', depth: 1, children: [{ type: 'text', value: title.replace(/[\r\n]+/g, ' ') }] };
  return toMarkdown({ type: 'root', children: [heading] }).replace(/\n+$/, '');
}

function textOf(node: Md.Node): string {
  if ('value' in node && typeof node.value === 'string') return node.value;
  if ('children' in node) return (node as Md.Parent).children.map(textOf).join('');
  return '';
}

const headingLine = /^ {0,3}#(?:[ \t][^\n]*)?$/;

/** The title of a body whose first line (blank lines aside) is a `# Title` heading, and the body after it. */
export function readTitle(body: string): { title?: string; rest: string } {
  const match = /^(?:[ \t]*\r?\n)*([^\n]*)(\n|$)/.exec(body);
  const line = match?.[1].replace(/\r$/, '') ?? '';
  if (!match || !headingLine.test(line)) return { rest: body };
  // A title of plain words needs no parser (most titles); anything Markdown might mean is parsed.
  const plain = /^ {0,3}#[ \t]+([^\\`*_[\]<>&!~$#|{}]*?)[ \t]*$/.exec(line);
  if (plain) return { title: plain[1], rest: body.slice(match[0].length).replace(/^(?:[ \t]*\r?\n)+/, '') };
  const heading = parseMarkdown(line).children[0];
  if (heading?.type !== 'heading' || heading.depth !== 1) return { rest: body };
  return { title: textOf(heading).trim(), rest: body.slice(match[0].length).replace(/^(?:[ \t]*\r?\n)+/, '') };
}
