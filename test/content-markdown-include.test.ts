// `{% include "…" %}` (server/content/markdown-liquid.ts, markdown-document.ts): GitBook's include of a
// reusable content reads as a `reusable-content` block and is written back the same way.
import { describe, expect, it } from 'vitest';
import { documentToMarkdown, markdownToDocument } from '../server/content/markdown-document.js';

describe('markdown {% include %}', () => {
  it('reads an include line as a reusable-content block and writes it back', () => {
    const markdown = 'Before.\n\n{% include "rsc_01JD3QN4H8ZP2RC" %}\n\nAfter.';
    const doc = markdownToDocument(markdown);
    expect(doc.nodes.map((b) => b.type)).toEqual(['paragraph', 'reusable-content', 'paragraph']);
    expect(doc.nodes[1]).toMatchObject({ isVoid: true, data: { ref: { kind: 'reusable-content', reusableContent: 'rsc_01JD3QN4H8ZP2RC' } } });
    expect(documentToMarkdown(doc)).toBe(markdown);
  });

  it('interrupts a paragraph, takes no closing tag, and keeps a quoted path with entities', () => {
    const doc = markdownToDocument('Text\n{% include "../.gitbook/includes/a &quot;b&quot;.md" %}\n{% endhint %}');
    expect(doc.nodes.map((b) => b.type)).toEqual(['paragraph', 'reusable-content', 'paragraph']);
    expect(doc.nodes[1].data).toEqual({ ref: { kind: 'reusable-content', reusableContent: '../.gitbook/includes/a "b".md' } });
    expect(documentToMarkdown({ nodes: [doc.nodes[1]] })).toBe('{% include "../.gitbook/includes/a &quot;b&quot;.md" %}');
  });

  it('an include inside an expandable stays inside it, one inside a hint comes out of it (GitBook\'s hint holds none); one without a quoted path is text', () => {
    const doc = markdownToDocument('<details>\n<summary>More</summary>\n\n{% include "rsc_01JD3QN4H8ZP2RC" %}\n\n</details>\n\n{% include snippet.md %}');
    expect(doc.nodes.map((b) => b.type)).toEqual(['expandable', 'paragraph']);
    expect(doc.nodes[0].fragments?.[1].nodes.map((b) => b.type)).toEqual(['reusable-content']);
    const inHint = markdownToDocument('{% hint style="info" %}\nSee:\n{% include "rsc_01JD3QN4H8ZP2RC" %}\n{% endhint %}');
    expect(inHint.nodes.map((b) => b.type)).toEqual(['hint', 'reusable-content']);
  });
});
