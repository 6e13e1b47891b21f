// GitBook's inlines in Markdown (server/content/markdown-document.ts), as GitBook's Git Sync writes them:
// annotations as footnotes (`a claim[^1]` … `[^1]: The source.`), mentions as links titled "mention",
// buttons as `<a class="button primary">`, icons as `<i class="fa-…">`. Markdown -> Document -> Markdown
// gives the Markdown back, the Document validates against GitBook's schema, and a property test checks
// paragraphs with footnotes among the other inlines stay stable.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { documentToMarkdown, markdownToDocument, type Block } from '../server/content/markdown-document.js';
import { gitbookDocumentErrors } from './support/gitbook-document.js';

/** GitBook's schema errors of a document (its button schema read as GitBook means it: test/support/gitbook-published.ts). */
const documentErrors = gitbookDocumentErrors;

const roundTrip = (markdown: string) => documentToMarkdown(markdownToDocument(markdown));
const text = (value: string, marks: string[] = []) => ({ object: 'text', leaves: [{ object: 'leaf', text: value, marks: marks.map((type) => ({ object: 'mark', type })) }] });
const paragraph = (...nodes: unknown[]) => ({ object: 'block', type: 'paragraph', nodes }) as unknown as Block;

describe('GitBook inlines in Markdown', () => {
  it('reads a footnote as an annotation of the word before it, its note the body', () => {
    const document = markdownToDocument('A **bold claim**[^1] here.\n\n[^1]: The source, [linked](https://example.com).\n\n    A second paragraph.');
    expect(documentErrors(document)).toBeUndefined();
    const [block] = document.nodes;
    expect(block.nodes).toMatchObject([
      { object: 'text', leaves: [{ text: 'A ' }, { text: 'bold ', marks: [{ type: 'bold' }] }] },
      {
        object: 'inline',
        type: 'annotation',
        isVoid: false,
        nodes: [{ object: 'text', leaves: [{ text: 'claim', marks: [{ type: 'bold' }] }] }],
        fragments: [
          {
            object: 'fragment',
            type: 'annotation-body',
            nodes: [
              { type: 'paragraph', nodes: [{ leaves: [{ text: 'The source, ' }] }, { type: 'link', data: { ref: { kind: 'url', url: 'https://example.com' } } }, { leaves: [{ text: '.' }] }] },
              { type: 'paragraph', nodes: [{ leaves: [{ text: 'A second paragraph.' }] }] },
            ],
          },
        ],
      },
      { object: 'text', leaves: [{ text: ' here.' }] },
    ]);
    // The footnote is no block of its own.
    expect(document.nodes).toHaveLength(1);
  });

  it('reads mentions, buttons (a link, an action, an icon) and icons (with a colour)', () => {
    const document = markdownToDocument(
      'See [Setup](pag_01ABCDEFGHJK "mention") by [usr_01ABCDEFGHJK](usr_01ABCDEFGHJK "mention"): <a href="https://example.com/go" class="button primary" data-icon="rocket">Go</a> <a class="button secondary" data-action="search" data-query="robots">Find</a> <i class="fa-check" style="color:$success;">:check:</i>',
    );
    expect(documentErrors(document)).toBeUndefined();
    const inlines = (document.nodes[0].nodes ?? []).filter((n) => n.object === 'inline');
    expect(inlines).toEqual([
      { object: 'inline', type: 'mention', isVoid: true, data: { ref: { kind: 'page', page: 'pag_01ABCDEFGHJK' } } },
      { object: 'inline', type: 'mention', isVoid: true, data: { ref: { kind: 'user', user: 'usr_01ABCDEFGHJK' } } },
      { object: 'inline', type: 'button', isVoid: true, data: { label: 'Go', kind: 'primary', icon: 'rocket', ref: { kind: 'url', url: 'https://example.com/go' } } },
      { object: 'inline', type: 'button', isVoid: true, data: { label: 'Find', kind: 'secondary', action: { action: 'search', query: 'robots' } } },
      { object: 'inline', type: 'icon', isVoid: true, data: { icon: 'check', color: '$success' } },
    ]);
  });

  it('writes them back as it read them', () => {
    for (const markdown of [
      'A **bold claim**[^1] and _a_ second[^2], the first again[^1].\n\n[^1]: The source, with a [link](https://example.com).\n\n    And a second paragraph.\n\n[^2]: Another note.',
      'See [pag_01ABCDEFGHJK](pag_01ABCDEFGHJK "mention") by [usr_01ABCDEFGHJK](usr_01ABCDEFGHJK "mention").',
      'Press <a href="https://example.com/signup" class="button primary" data-icon="rocket">Sign up</a> or <button type="button" class="button secondary" data-action="search" data-query="robots">Find</button>.',
      'Done <i class="fa-github">:github:</i> <i class="fa-check" style="color:$success;">:check:</i> here.',
      '- An item with a note[^1]\n\n| Column     |\n| ---------- |\n| A cell[^2] |\n\n[^1]: Noted.\n\n[^2]: In a table.',
    ]) {
      expect(roundTrip(markdown)).toBe(markdown);
    }
  });

  it('keeps what is not GitBook\'s form of them as text', () => {
    // A reference without a footnote, a tag never closed, a link that is not a button.
    for (const markdown of ['No note[^9] here.', 'Open <a href="https://x.example" class="button primary">never closed', 'A <a href="https://x.example">plain</a> link.']) {
      const document = markdownToDocument(markdown);
      expect((document.nodes[0].nodes ?? []).filter((n) => n.object === 'inline')).toEqual([]);
    }
  });

  it('writes an annotation of several words as its text and a footnote, one footnote for one body, none without a body', () => {
    const note = (body: string) => [{ object: 'fragment', fragment: 'annotation-body', type: 'annotation-body', nodes: [paragraph(text(body))] }];
    const annotation = (words: string, fragments: unknown[]) => ({ object: 'inline', type: 'annotation', isVoid: false, nodes: [text(words)], fragments });
    const markdown = documentToMarkdown({
      nodes: [paragraph(text('Robots '), annotation('move boxes', note('In warehouses.')), text(' and '), annotation('rest', note('In warehouses.')), text(', '), annotation('sleep', []), text('.'))],
    });
    expect(markdown).toBe('Robots move boxes[^1] and rest[^1], sleep.\n\n[^1]: In warehouses.');
    // Read back, the word right before the reference is the annotated text.
    const again = markdownToDocument(markdown);
    expect(again.nodes[0].nodes?.[1]).toMatchObject({ type: 'annotation', nodes: [{ leaves: [{ text: 'boxes' }] }] });
    expect(documentToMarkdown(again)).toBe(markdown);
  });

  it('keeps paragraphs with footnotes among other inlines stable (property)', () => {
    const word = fc.stringMatching(/^[A-Za-z0-9]{1,8}$/);
    const piece = fc.oneof(
      { weight: 4, arbitrary: word },
      { weight: 1, arbitrary: word.map((w) => `**${w}**`) },
      { weight: 1, arbitrary: word.map((w) => `\`${w}\``) },
      { weight: 1, arbitrary: word.map((w) => `[${w}](https://example.com/${w})`) },
      { weight: 1, arbitrary: word.map((w) => `<i class="fa-${w.toLowerCase()}">:${w.toLowerCase()}:</i>`) },
      { weight: 1, arbitrary: word.map((w) => `<a href="https://example.com/${w}" class="button primary">${w}</a>`) },
    );
    const sentence = fc.array(fc.tuple(piece, fc.boolean()), { minLength: 1, maxLength: 6 });
    fc.assert(
      fc.property(fc.array(sentence, { minLength: 1, maxLength: 3 }), fc.array(fc.array(word, { minLength: 1, maxLength: 4 }), { minLength: 1, maxLength: 3 }), (paragraphs, notes) => {
        let n = 0;
        const body = paragraphs.map((parts) => parts.map(([p, noted]) => (noted ? `${p}[^${(n++ % notes.length) + 1}]` : p)).join(' ')).join('\n\n');
        const used = Math.min(n, notes.length);
        const definitions = notes.slice(0, used).map((ws, i) => `[^${i + 1}]: ${ws.join(' ')}`);
        const markdown = [body, ...definitions].join('\n\n');
        const document = markdownToDocument(markdown);
        expect(documentErrors(document)).toBeUndefined();
        const written = documentToMarkdown(document);
        expect(documentToMarkdown(markdownToDocument(written))).toBe(written);
        expect(markdownToDocument(written).nodes).toEqual(document.nodes);
      }),
      { numRuns: 60 },
    );
  });
});
