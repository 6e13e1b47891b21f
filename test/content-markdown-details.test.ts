// `<details>` as GitBook writes it (server/content/markdown-document.ts, detailsOpening): the blank-line
// variants of a GitBook export read as the same expandable block as the compact form this server writes.
import { describe, expect, it } from 'vitest';
import { documentToMarkdown, markdownToDocument, type Block } from '../server/content/markdown-document.js';

const compact = '<details>\n<summary>How it works</summary>\n\nThe **body**.\n\n- one\n\n</details>';
const expected = markdownToDocument(compact).nodes;

function shape(blocks: Block[]): unknown {
  return blocks.map((b) => ({ type: b.type, data: b.data, text: JSON.stringify(b.nodes), fragments: JSON.stringify(b.fragments) }));
}

describe('markdown <details> variants', () => {
  it('the compact form is an expandable holding its blocks', () => {
    expect(expected).toHaveLength(1);
    // GitBook's expandable: its title and body are fragments.
    expect(expected[0]).toMatchObject({ type: 'expandable', isVoid: true, data: {}, fragments: [{ fragment: 'expandable-title', nodes: [{ type: 'paragraph', nodes: [{ leaves: [{ text: 'How it works' }] }] }] }, { fragment: 'expandable-body' }] });
    expect(expected[0].fragments?.[1].nodes.map((b) => b.type)).toEqual(['paragraph', 'list-unordered']);
  });

  it.each([
    ['a blank line between <details> and <summary> (GitBook export)', '<details>\n\n<summary>How it works</summary>\n\nThe **body**.\n\n- one\n\n</details>'],
    ['<details><summary> on one line', '<details><summary>How it works</summary>\n\nThe **body**.\n\n- one\n\n</details>'],
    ['a summary over several lines', '<details>\n\n<summary>\nHow it\nworks\n</summary>\n\nThe **body**.\n\n- one\n\n</details>'],
    ['indented tags and upper case', '<DETAILS>\n\n  <Summary>How it works</Summary>\n\nThe **body**.\n\n- one\n</details>'],
    ['content right after </summary>', '<details>\n<summary>How it works</summary>\nThe **body**.\n\n- one\n\n</details>'],
    ['a blank line before <summary> and content right after it', '<details>\n\n<summary>How it works</summary>\nThe **body**.\n\n- one\n\n</details>'],
  ])('%s reads as the same expandable', (_name, markdown) => {
    expect(shape(markdownToDocument(markdown).nodes)).toEqual(shape(expected));
  });

  it('<details open> with a blank line is expanded by default; a nested one comes after it (GitBook\'s expandable holds none)', () => {
    const doc = markdownToDocument('<details open>\n\n<summary>Outer</summary>\n\n<details>\n\n<summary>Inner</summary>\n\nDeep.\n\n</details>\n\n</details>\n\nAfter.');
    expect(doc.nodes.map((b) => b.type)).toEqual(['expandable', 'expandable', 'paragraph']);
    expect(doc.nodes[0].data).toEqual({ defaultExpanded: true });
    expect(doc.nodes[0].fragments).toMatchObject([{ fragment: 'expandable-title', nodes: [{ nodes: [{ leaves: [{ text: 'Outer' }] }] }] }]);
    const inner = doc.nodes[1] as Block;
    expect(inner).toMatchObject({ type: 'expandable', data: {}, fragments: [{ nodes: [{ nodes: [{ leaves: [{ text: 'Inner' }] }] }] }, {}] });
    // Written back in the compact form, it reads as the same document.
    expect(shape(markdownToDocument(documentToMarkdown(doc)).nodes)).toEqual(shape(doc.nodes));
  });

  it('a <details> without <summary> or without </details> stays HTML', () => {
    expect(markdownToDocument('<details>\n\nNo summary.\n\n</details>').nodes.map((b) => b.type)).not.toContain('expandable');
    expect(markdownToDocument('<details>\n\n<summary>Never closed</summary>\n\nText.').nodes.map((b) => b.type)).not.toContain('expandable');
  });
});
