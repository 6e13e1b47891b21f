// Writing a page back in its file's own words (server/git-sync/format/source-blocks.ts): the blocks, front
// matter and title line that read the same keep the branch's text; what changed is written in this
// server's style; a result that would read differently is never given. And the front matter keys GitBook
// writes that a page has no field for (front-matter.ts) come back as they were. Pure: no database, no network.
import { describe, expect, it } from 'vitest';
import { stableJson } from '../server/content/block-keys.js';
import { markdownToDocument } from '../server/content/markdown-document.js';
import { readRepository, writeRepository, type RepositoryFiles } from '../server/git-sync/format/index.js';
import { readFrontMatter } from '../server/git-sync/format/front-matter.js';
import { writtenReadRefs } from '../server/git-sync/format/refs.js';
import { keepSourceText } from '../server/git-sync/format/source-blocks.js';
import { readTitle } from '../server/git-sync/format/title.js';

const encoder = new TextEncoder();
const decoder = new TextDecoder();
const repo = (entries: Record<string, string>): RepositoryFiles => new Map(Object.entries(entries).map(([p, v]) => [p, encoder.encode(v)]));

/** What a page file says: its front matter, its title and its blocks (keys aside). */
function reading(text: string) {
  const { data, body } = readFrontMatter(text, 'page.md');
  const { title, rest } = readTitle(body);
  return { data, title, blocks: stableJson(markdownToDocument(rest).nodes, true) };
}

/** The lines of `after` that are not those of `before` at the same place (a line diff of two texts' common start and end). */
function changedLines(before: string, after: string): { removed: string[]; added: string[] } {
  const a = before.split('\n');
  const b = after.split('\n');
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start++;
  let end = 0;
  while (end < a.length - start && end < b.length - start && a[a.length - 1 - end] === b[b.length - 1 - end]) end++;
  return { removed: a.slice(start, a.length - end), added: b.slice(start, b.length - end) };
}

const source = [
  '---',
  'description: A page written by hand',
  '---',
  '',
  '# Handmade',
  '',
  '',
  'Intro with __bold__ and a [reference link][docs].',
  '',
  '* one',
  '* two',
  '',
  '{% hint style="info" %}',
  'Inside *the* hint.',
  '{% endhint %}',
  '',
  '<details>',
  '',
  '<summary>More</summary>',
  '',
  'Hidden __text__.',
  '',
  '</details>',
  '',
  'Middle paragraph.',
  '',
  '1) first',
  '2) second',
  '',
  '[docs]: https://example.com/docs',
  '',
].join('\n');

/** `source` as this server writes it, with `change` applied to its Markdown first (and `title` its SUMMARY.md title, the page's). */
function ours(change: (markdown: string) => string = (m) => m, title = 'Handmade'): string {
  const files = readRepository(repo({ 'SUMMARY.md': `# Table of contents\n\n* [${title}](README.md)\n`, 'README.md': change(source) }));
  return decoder.decode(writeRepository(files.content, files.fileBytes, { previousPaths: files.paths }).files.get('README.md')!);
}

describe('git sync format: an edited page keeps its own words', () => {
  it('gives the branch text back whole when this server’s text reads the same', () => {
    const written = ours();
    expect(written).not.toBe(source); // this server writes it otherwise (`-` bullets, `**`, …)
    expect(keepSourceText(source, written, 'README.md')).toBe(source);
  });

  it('changes only the lines of an edited paragraph, and of a block added or removed', () => {
    const edited = keepSourceText(source, ours((m) => m.replace('Middle paragraph.', 'Middle paragraph, edited.')), 'README.md');
    expect(changedLines(source, edited)).toEqual({ removed: ['Middle paragraph.'], added: ['Middle paragraph, edited.'] });
    expect(reading(edited)).toEqual(reading(ours((m) => m.replace('Middle paragraph.', 'Middle paragraph, edited.'))));

    const added = keepSourceText(source, ours((m) => m.replace('Middle paragraph.\n', 'Middle paragraph.\n\nA new one.\n')), 'README.md');
    expect(changedLines(source, added)).toEqual({ removed: [], added: ['A new one.', ''] });

    const removed = keepSourceText(source, ours((m) => m.replace('Middle paragraph.\n\n', '')), 'README.md');
    expect(changedLines(source, removed)).toEqual({ removed: ['Middle paragraph.', ''], added: [] });
  });

  it('writes the front matter again only when what it says changed, and the title line only when the title did', () => {
    const described = keepSourceText(source, ours((m) => m.replace('A page written by hand', 'Another description')), 'README.md');
    expect(changedLines(source, described)).toEqual({ removed: ['description: A page written by hand'], added: ['description: Another description'] });
    const retitled = keepSourceText(source, ours((m) => m, 'Made by hand'), 'README.md');
    expect(changedLines(source, retitled)).toEqual({ removed: ['# Handmade'], added: ['# Made by hand'] });
  });

  it('never gives a text that reads otherwise: a new list right after a kept one is not joined to it', () => {
    // A second list right after the first (`*` then `-`): this server writes them so too (GitBook's bullets), and
    // on this page, whose lists are `*`, the new list keeps `-` and stays apart from the kept one.
    const next = ours((m) => m.replace('* two\n', '* two\n\n- three\n'));
    expect(next).toContain('* one\n* two\n\n- three\n');
    const kept = keepSourceText(source, next, 'README.md');
    expect(reading(kept)).toEqual(reading(next));
    expect(changedLines(source, kept)).toEqual({ removed: [], added: ['- three', ''] });
    // When the space removes the paragraph between two lists of the same bullet, keeping both would join them: the second is written with the other bullet.
    const lists = source.replace('Middle paragraph.\n\n', '* three\n\nMiddle paragraph.\n\n* four\n\n');
    const read = readRepository(repo({ 'SUMMARY.md': '# Table of contents\n\n* [Handmade](README.md)\n', 'README.md': lists }));
    const page = read.content.pages[0];
    const nodes = page.document!.nodes.filter((b) => !JSON.stringify(b).includes('Middle paragraph.'));
    expect(nodes).toHaveLength(page.document!.nodes.length - 1);
    const without = writeRepository({ ...read.content, pages: [{ ...page, document: { ...page.document!, nodes } }] }, read.fileBytes, { previousPaths: read.paths }).files.get('README.md')!;
    const joined = keepSourceText(lists, decoder.decode(without), 'README.md');
    expect(reading(joined)).toEqual(reading(decoder.decode(without)));
    expect(joined).toContain('</details>\n\n* three\n\n- four\n\n1) first');
    // A branch file this format cannot read is replaced by this server's text.
    expect(keepSourceText('---\ndescription: never closed\n# Handmade\n', next, 'README.md')).toBe(next);
  });

  it('reads link targets as the import does: a folder link and a path not percent-encoded are kept', () => {
    const files = {
      'SUMMARY.md': '# Table of contents\n\n* [Home](README.md)\n* [Guide](guide/README.md)\n',
      'README.md': '# Home\n\nSee [the guide](guide/) and ![a shot](<.gitbook/assets/shot (1).png>).\n\nEdit me.\n',
      'guide/README.md': '# Guide\n\nText.\n',
      '.gitbook/assets/shot (1).png': 'not really a PNG',
    };
    const read = readRepository(repo(files));
    const home = read.content.pages.find((p) => p.title === 'Home')!;
    const nodes = home.document!.nodes.map((b) => (JSON.stringify(b).includes('Edit me.') ? markdownToDocument('Edited.').nodes[0] : b));
    const content = { ...read.content, pages: read.content.pages.map((p) => (p.id === home.id ? { ...p, document: { ...p.document!, nodes } } : p)) };
    const written = writeRepository(content, read.fileBytes, { previousPaths: read.paths });
    const ourText = decoder.decode(written.files.get('README.md')!);
    expect(ourText).toContain('[the guide](guide/README.md)'); // this server names the file, and encodes the space
    expect(ourText).toContain('![a shot](<.gitbook/assets/shot (1).png>)'); // as GitBook writes a path with spaces
    // Read with plain URLs the links differ, and the paragraph is written as this server writes it; read as the import reads them, it is kept.
    expect(changedLines(files['README.md'], keepSourceText(files['README.md'], ourText, 'README.md'))).toEqual({ removed: expect.arrayContaining(['Edit me.']), added: expect.arrayContaining(['Edited.']) });
    expect(keepSourceText(files['README.md'], ourText, 'README.md')).toContain('guide/README.md');
    const kept = keepSourceText(files['README.md'], ourText, 'README.md', writtenReadRefs(content, written.paths, '')('README.md'));
    expect(changedLines(files['README.md'], kept)).toEqual({ removed: ['Edit me.'], added: ['Edited.'] });
  });

  it('writes the blocks it adds with the branch’s bullets and its paths as GitBook spells them', () => {
    const files = {
      'SUMMARY.md': '# Table of contents\n\n* [Home](README.md)\n',
      'README.md': '# Home\n\n* one\n  * nested\n* two\n\nSee ![a shot](<.gitbook/assets/shot (1).png>) and [the PDF](<.gitbook/assets/my guide.pdf>).\n\nEdit me.\n',
      '.gitbook/assets/shot (1).png': 'not really a PNG',
      '.gitbook/assets/my guide.pdf': 'not really a PDF',
    };
    const read = readRepository(repo(files));
    // Unedited, the page is written back as GitBook wrote it.
    const unedited = decoder.decode(writeRepository(read.content, read.fileBytes, { previousPaths: read.paths }).files.get('README.md')!);
    expect(unedited).toContain('See ![a shot](<.gitbook/assets/shot (1).png>) and [the PDF](<.gitbook/assets/my guide.pdf>).');
    expect(keepSourceText(files['README.md'], unedited, 'README.md')).toBe(files['README.md']);
    // The paragraph replaced by a new list and a new link to the PDF: only those lines change, in the branch's style.
    const home = read.content.pages[0];
    const pdf = read.content.files.find((f) => f.name === 'my guide.pdf')!;
    const added = markdownToDocument(`* three\n  * four\n\nRead [the guide](${pdf.id}).`).nodes;
    const nodes = home.document!.nodes.flatMap((b) => (JSON.stringify(b).includes('Edit me.') ? added : [b]));
    const content = { ...read.content, pages: [{ ...home, document: { ...home.document!, nodes } }] };
    const written = writeRepository(content, read.fileBytes, { previousPaths: read.paths });
    const kept = keepSourceText(files['README.md'], decoder.decode(written.files.get('README.md')!), 'README.md', writtenReadRefs(content, written.paths, '')('README.md'));
    expect(changedLines(files['README.md'], kept)).toEqual({ removed: ['Edit me.'], added: ['* three', '  * four', '', 'Read [the guide](<.gitbook/assets/my guide.pdf>).'] });
    const again = readRepository(repo({ ...files, 'README.md': kept }), { previous: content, previousPaths: written.paths });
    expect(stableJson(again.content.pages[0].document!.nodes, true)).toBe(stableJson(nodes, true));
  });
});

describe('git sync format: dividers as GitBook writes them', () => {
  it('writes a divider `***` in a whole page (as GitBook does), a page opening with one too', () => {
    const read = readRepository(repo({ 'SUMMARY.md': '# Table of contents\n\n* [Home](README.md)\n', 'README.md': '# Home\n\nOne.\n' }));
    const home = read.content.pages[0];
    const nodes = markdownToDocument('---\n\nOne.\n\n- - -\n\nTwo.').nodes;
    const written = decoder.decode(writeRepository({ ...read.content, pages: [{ ...home, document: { ...home.document!, nodes } }] }, read.fileBytes).files.get('README.md')!);
    expect(written).toBe('# Home\n\n***\n\nOne.\n\n***\n\nTwo.\n');
    expect(markdownToDocument(readTitle(written).rest).nodes.map((b) => b.type)).toEqual(['divider', 'paragraph', 'divider', 'paragraph']);
  });

  /** `page` as README.md with a divider and a paragraph added after its blocks: what is written, and kept. */
  function withDividerAdded(page: string) {
    const read = readRepository(repo({ 'SUMMARY.md': '# Table of contents\n\n* [Home](README.md)\n', 'README.md': page }));
    const home = read.content.pages[0];
    const nodes = [...home.document!.nodes, ...markdownToDocument('---\n\nThree.').nodes];
    const written = decoder.decode(writeRepository({ ...read.content, pages: [{ ...home, document: { ...home.document!, nodes } }] }, read.fileBytes, { previousPaths: read.paths }).files.get('README.md')!);
    return { written, kept: keepSourceText(page, written, 'README.md') };
  }

  it('adds a divider `***` to a page whose dividers are, only its lines added', () => {
    const page = '# Home\n\nOne.\n\n***\n\nTwo.\n';
    const { written, kept } = withDividerAdded(page);
    expect(written).toContain('Two.\n\n***\n\nThree.');
    expect(kept).toBe(`${page}\n***\n\nThree.\n`);
    expect(reading(kept)).toEqual(reading(written));
  });

  it('adds a divider in the branch’s `___` where its dividers are so', () => {
    const page = '# Home\n\nOne.\n\n___\n\nTwo.\n';
    const { written, kept } = withDividerAdded(page);
    expect(kept).toBe(`${page}\n___\n\nThree.\n`);
    expect(reading(kept)).toEqual(reading(written));
  });
});

describe('git sync format: front matter keys a page has no field for', () => {
  const front = [
    '---',
    'description: >-',
    '  Folded description',
    'icon: rocket',
    'cover: .gitbook/assets/cover.png',
    'coverY: -42',
    'layout:',
    '  width: wide',
    '  title:',
    '    visible: true',
    '  outline:',
    '    visible: false',
    'tags:',
    '  - guide',
    '  - setup',
    'metadata:',
    '  robots: noindex',
    'name: handmade',
    'hidden: true',
    '---',
    '',
    '# Handmade',
    '',
    'Text.',
    '',
  ].join('\n');

  it('reads them into the page as their YAML and writes them back after the page’s own keys', () => {
    const read = readRepository(repo({ 'SUMMARY.md': '# Table of contents\n\n* [Handmade](README.md)\n', 'README.md': front }));
    const page = read.content.pages[0];
    expect(page).toMatchObject({ description: 'Folded description', icon: 'rocket', hidden: true });
    expect(page.frontMatter).toBe('cover: .gitbook/assets/cover.png\ncoverY: -42\nlayout:\n  width: wide\n  title:\n    visible: true\n  outline:\n    visible: false\ntags:\n  - guide\n  - setup\nmetadata:\n  robots: noindex\nname: handmade\n');
    const written = decoder.decode(writeRepository(read.content, read.fileBytes, { previousPaths: read.paths }).files.get('README.md')!);
    expect(written).toBe(['---', 'description: Folded description', 'icon: rocket', 'hidden: true', page.frontMatter!.trimEnd(), '---', '', '# Handmade', '', 'Text.', ''].join('\n'));
    // Read back: the same page, the same keys.
    const again = readRepository(repo({ 'SUMMARY.md': '# Table of contents\n\n* [Handmade](README.md)\n', 'README.md': written }), { previous: read.content, previousPaths: read.paths });
    expect(again.content.pages[0]).toEqual(page);
    // Edited elsewhere, the page keeps its front matter as the branch wrote it.
    const edited = decoder.decode(writeRepository({ ...read.content, pages: [{ ...page, document: markdownToDocument('Text, edited.') }] }, read.fileBytes, { previousPaths: read.paths }).files.get('README.md')!);
    expect(changedLines(front, keepSourceText(front, edited, 'README.md'))).toEqual({ removed: ['Text.'], added: ['Text, edited.'] });
  });

  it('keeps comments and an alias whose anchor is on a key of the page', () => {
    const read = readRepository(repo({ 'README.md': '---\ndescription: &d Shared\n# the cover\ncover: x.png\nname: *d\n---\n# Home\n' }));
    expect(read.content.pages[0].frontMatter).toBe('cover: x.png\nname: Shared\n');
    const commented = readRepository(repo({ 'README.md': '---\n# the cover\ncover: x.png # right here\n---\n# Home\n' }));
    expect(commented.content.pages[0].frontMatter).toBe('# the cover\ncover: x.png # right here\n');
  });
});
