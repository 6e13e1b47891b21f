// The published site renders a page's Document from the mdast tree of its Markdown instead of writing the
// Markdown and parsing it back (issue 52: the round trip was two thirds of a first view's render). The HTML
// and outline must be the very same bytes as the round trip's, for every block a page can hold.
import { describe, expect, it } from 'vitest';
import { documentToMarkdown, documentToMarkdownTree, markdownToDocument } from '../server/content/markdown-document.js';
import { renderMarkdownPage, renderMdast } from '../server/published/render-markdown.js';
import { EVERY_BLOCK_MARKDOWN } from './support/every-block.js';

const samples: Record<string, string> = {
  'every block': EVERY_BLOCK_MARKDOWN,
  // Text a parser would read as more than text (bare URLs, an address, HTML, markers, entities), task lists,
  // an annotation's footnote, nested lists and a heading whose anchor is its own.
  'text that looks like syntax': [
    '# Title <a href="#custom" id="custom"></a>',
    'See https://example.com/x and www.example.com and a@b.co, <b>bold</b> *a* _b_ \\* 1. not a list, 2 < 3 & 4 > 1, &amp;.',
    '- [ ] task\n- [x] done\n  - nested `code`',
    '1. one\n2. two',
    '> A quote with $$x^2$$ and a [link](https://example.com "title").',
    'A note[^1].\n\n[^1]: The note, with **strong** text.',
  ].join('\n\n'),
};

describe('published page rendered from the Markdown tree', () => {
  it.each(Object.entries(samples))('gives the same HTML and outline as the Markdown round trip: %s', async (_, markdown) => {
    const document = markdownToDocument(markdown);
    const options = { site: true, allAnchors: true };
    // A first render loads the highlighter's grammars; both ways below then find them loaded.
    await renderMarkdownPage(documentToMarkdown(document, undefined, options));
    const parsed = await renderMarkdownPage(documentToMarkdown(document, undefined, options));
    const direct = await renderMdast(documentToMarkdownTree(document, undefined, options));
    expect(parsed.html.length).toBeGreaterThan(100);
    expect(direct.html).toBe(parsed.html);
    expect(direct.outline).toEqual(parsed.outline);
  });
});
