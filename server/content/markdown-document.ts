// Conversions between the Markdown a page stores and the rich-text Document the API can show, through
// the mdast syntax tree (mdast-util-from-markdown) rather than hand-written parsing.
import { fromMarkdown } from 'mdast-util-from-markdown';
import type { components } from '../../generated/types.js';

type Document = components['schemas']['Document'];
type Block = components['schemas']['DocumentBlock'];
type Text = components['schemas']['DocumentText'];
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type MdNode = { type: string; value?: string; depth?: number; ordered?: boolean | null; checked?: boolean | null; lang?: string | null; children?: MdNode[] };

function textOf(node: MdNode): string {
  if (node.value !== undefined) return node.value;
  return (node.children ?? []).map(textOf).join('');
}

function text(value: string): Text {
  return { object: 'text', leaves: [{ object: 'leaf', text: value }] };
}

function block(type: Block['type'], nodes: Block['nodes']): Block {
  return { object: 'block', type, nodes };
}

function toBlock(node: MdNode): Block | undefined {
  switch (node.type) {
    case 'heading':
      return block(node.depth === 1 ? 'heading-1' : node.depth === 2 ? 'heading-2' : 'heading-3', [text(textOf(node))]);
    case 'list': {
      const tasks = (node.children ?? []).some((item) => item.checked != null);
      const items = (node.children ?? []).map((item) => block('list-item', childBlocks(item)));
      return block(tasks ? 'list-tasks' : node.ordered ? 'list-ordered' : 'list-unordered', items);
    }
    case 'code':
      return { ...block('code', (node.value ?? '').split('\n').map((line) => block('code-line', [text(line)]))), ...(node.lang && { data: { syntax: node.lang } }) };
    case 'blockquote':
      return block('blockquote', childBlocks(node));
    case 'thematicBreak':
      return { object: 'block', type: 'divider', isVoid: true };
    case 'paragraph':
    case 'html':
    case 'table':
      return block('paragraph', [text(textOf(node))]);
    default:
      return undefined;
  }
}

function childBlocks(node: MdNode): Block[] {
  return (node.children ?? []).map(toBlock).filter((b): b is Block => b !== undefined);
}

/** The rich-text document of a Markdown text: headings, paragraphs, lists, code, quotes and dividers. */
export function markdownToDocument(markdown: string): Document {
  return { object: 'document', data: { schemaVersion: 1 }, nodes: childBlocks(fromMarkdown(markdown) as MdNode) };
}

function blockText(node: Block | Text): string {
  if (node.object === 'text') return node.leaves.map((l) => l.text).join('');
  return (node.nodes ?? []).map(blockText).join(node.type === 'code' ? '\n' : '');
}

/** Markdown for a rich-text document: one paragraph, heading, list or code block per block. */
export function documentToMarkdown(document: Document): string {
  return document.nodes
    .map((b) => {
      switch (b.type) {
        case 'heading-1':
          return `# ${blockText(b)}`;
        case 'heading-2':
          return `## ${blockText(b)}`;
        case 'heading-3':
          return `### ${blockText(b)}`;
        case 'list-ordered':
          return (b.nodes ?? []).map((item, i) => `${i + 1}. ${blockText(item)}`).join('\n');
        case 'list-unordered':
        case 'list-tasks':
          return (b.nodes ?? []).map((item) => `- ${blockText(item)}`).join('\n');
        case 'code':
          return `\`\`\`\n${blockText(b)}\n\`\`\``;
        case 'divider':
          return '---';
        case 'blockquote':
          return `> ${blockText(b)}`;
        default:
          return blockText(b);
      }
    })
    .join('\n\n');
}
