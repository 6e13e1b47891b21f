// Git Sync's format and the SUMMARY.md entries that are no page file of their own: an entry linking to a
// web URL, to an anchor of a page, or to a page listed already is a link page (GitBook's RevisionPageLink,
// `target` a url, an anchor or a page), read and written back the same; and the title SUMMARY.md gives a
// page is its title, as GitBook documents (`[Page main title](page.md)`), over the file's `# Title`.
import { describe, expect, it } from 'vitest';
import { childrenOf, type RevisionContent } from '../server/content/revision-content.js';
import { readRepository, writeRepository, type RepositoryFiles } from '../server/git-sync/format/index.js';

const encoder = new TextEncoder();
const decoder = new TextDecoder();
const repo = (entries: Record<string, string>): RepositoryFiles => new Map(Object.entries(entries).map(([p, v]) => [p, encoder.encode(v)]));
const text = (files: RepositoryFiles, path: string) => decoder.decode(files.get(path)!);

/** The tree as lines: type, title and, for a link page, its target with the target page named by title. */
function outline(content: RevisionContent): string[] {
  const title = (id: string) => content.pages.find((p) => p.id === id)?.title;
  const out: string[] = [];
  const visit = (parent: string | null, depth: number) => {
    for (const p of childrenOf(content, parent)) {
      const t = p.target;
      const target = !t ? '' : t.kind === 'url' ? ` → ${t.url}` : t.kind === 'page' ? ` → "${title(t.page)}"` : ` → "${title(t.page)}"#${t.anchor}`;
      out.push(`${'  '.repeat(depth)}${p.type} ${p.title}${target}`);
      visit(p.id, depth + 1);
    }
  };
  visit(null, 0);
  return out;
}

// SUMMARY.md as GitBook writes one with link entries (GitbookIO/public-docs, documentation/SUMMARY.md, lines 47-51).
const summary = [
  '# Table of contents',
  '',
  '* [Home](README.md)',
  '* [Inline](formatting/inline.md)',
  '  * [Buttons](formatting/inline.md#buttons)',
  '  * [Icons](formatting/inline.md#icons)',
  '* [Custom blocks](https://app.gitbook.com/s/2SyQSbIa1iYS7z6Dx5di/integrations/quickstart)',
  '  * [Under a link](under.md)',
  '',
  '## Elsewhere',
  '',
  '* [Home again](README.md)',
  '',
].join('\n');
const files = {
  'SUMMARY.md': summary,
  'README.md': '# Home\n\nWelcome.\n',
  'formatting/inline.md': '# Inline\n\n## Buttons\n\nPress.\n\n## Icons\n\nLook.\n',
  'under.md': '# Under a link\n\nBelow.\n',
};

describe('link pages of SUMMARY.md', () => {
  it('reads a URL entry, an anchor entry and a file listed again as link pages, their sub-entries under them', () => {
    const read = readRepository(repo(files));
    expect(read.warnings).toEqual([]);
    expect(outline(read.content)).toEqual([
      'document Home',
      'document Inline',
      '  link Buttons → "Inline"#buttons',
      '  link Icons → "Inline"#icons',
      'link Custom blocks → https://app.gitbook.com/s/2SyQSbIa1iYS7z6Dx5di/integrations/quickstart',
      '  document Under a link',
      'group Elsewhere',
      '  link Home again → "Home"',
    ]);
    // A link page has no file; a document under one stands in the folder of the link page's siblings.
    const links = read.content.pages.filter((p) => p.type === 'link');
    expect(links.map((p) => read.paths.get(p.id))).toEqual([undefined, undefined, undefined, undefined]);
    expect(links.every((p) => p.document === undefined)).toBe(true);
  });

  it('writes them back as GitBook wrote them, and reads the written repository to the same content, ids included', () => {
    const read = readRepository(repo(files));
    const written = writeRepository(read.content, read.fileBytes, { structure: read.structure, previousPaths: read.paths });
    expect(text(written.files, 'SUMMARY.md')).toBe(summary);
    for (const path of ['README.md', 'formatting/inline.md', 'under.md']) expect(text(written.files, path)).toBe(files[path as keyof typeof files]);
    expect([...written.files.keys()].sort()).toEqual(['.gitbook.yaml', 'README.md', 'SUMMARY.md', 'formatting/inline.md', 'under.md']);
    const again = readRepository(written.files, { previous: read.content, previousPaths: written.paths });
    expect(again.warnings).toEqual([]);
    // Every page, link pages too, is the one it was: the same object when nothing changed.
    expect(again.content.pages.map((p) => p.id)).toEqual(read.content.pages.map((p) => p.id));
    again.content.pages.forEach((p, i) => expect(p).toBe(read.content.pages[i]));
  });

  it('follows the page a link page targets when that page moves, and keeps the link page when its title is kept', () => {
    const read = readRepository(repo(files));
    const moved = { ...files, 'SUMMARY.md': summary.replace('formatting/inline.md)', 'moved/inline.md)').replaceAll('formatting/inline.md#', 'moved/inline.md#') };
    const { 'formatting/inline.md': inline, ...rest } = moved;
    const again = readRepository(repo({ ...rest, 'moved/inline.md': inline }), { previous: read.content, previousPaths: read.paths });
    const byTitle = (content: RevisionContent, title: string) => content.pages.find((p) => p.title === title)!;
    expect(byTitle(again.content, 'Buttons').id).toBe(byTitle(read.content, 'Buttons').id);
    expect(byTitle(again.content, 'Buttons').target).toEqual({ kind: 'anchor', page: byTitle(again.content, 'Inline').id, anchor: 'buttons' });
    const written = writeRepository(again.content, again.fileBytes, { previousPaths: again.paths });
    expect(text(written.files, 'SUMMARY.md')).toContain('  * [Buttons](moved/inline.md#buttons)\n');
  });

  it('skips an entry at an anchor of a file no entry lists as a page, with a warning, keeping its sub-entries', () => {
    const read = readRepository(repo({ 'SUMMARY.md': '# Summary\n\n* [Home](README.md)\n* [Part](other.md#part)\n  * [Kept](kept.md)\n', 'README.md': '# Home\n', 'other.md': '# Other\n', 'kept.md': '# Kept\n' }));
    expect(outline(read.content)).toEqual(['document Home', 'document Kept']);
    expect(read.warnings).toEqual(['SUMMARY.md:4: "Part" links to other.md#part, a file no entry lists as a page: skipped, its sub-entries kept in its place', 'other.md: not in SUMMARY.md: not read as a page']);
  });

  it('skips an entry of another scheme than a web or mail address (no place to send readers), with a warning', () => {
    const read = readRepository(repo({ 'SUMMARY.md': '# Summary\n\n* [Home](README.md)\n* [Run](javascript:alert(1))\n* [Mail](mailto:docs@example.com)\n', 'README.md': '# Home\n' }));
    expect(outline(read.content)).toEqual(['document Home', 'link Mail → mailto:docs@example.com']);
    expect(read.warnings).toEqual(['SUMMARY.md:4: "Run" links to javascript:alert(1), neither a page file nor a web address: skipped']);
  });

  it('leaves out a link page to a page the space does not hold, with a warning, its subpages in its place', () => {
    const read = readRepository(repo(files));
    const inline = read.content.pages.find((p) => p.title === 'Inline')!;
    const custom = read.content.pages.find((p) => p.title === 'Custom blocks')!;
    // Inline is deleted (its link pages with it, as its subpages); Custom blocks now links to it.
    const pages = read.content.pages.filter((p) => p.id !== inline.id && p.parent !== inline.id).map((p) => (p.id === custom.id ? { ...p, target: { kind: 'page' as const, page: inline.id } } : p));
    const written = writeRepository({ ...read.content, pages }, read.fileBytes, { previousPaths: read.paths });
    expect(text(written.files, 'SUMMARY.md')).toBe('# Table of contents\n\n* [Home](README.md)\n* [Under a link](under.md)\n\n## Elsewhere\n\n* [Home again](README.md)\n');
    expect(written.warnings).toEqual([`SUMMARY.md: link page "Custom blocks" (${custom.id}) links to page ${inline.id}, no document page of the space: not written, its subpages in its place`]);
  });
});

describe('the title SUMMARY.md gives a page', () => {
  it('is the page title over its `# Title`; front matter `title` first; without SUMMARY.md the `# Title`', () => {
    const pages = {
      'README.md': '# Home\n',
      'openapi.md': '# OpenAPI\n\nSpecs.\n',
      'trial.md': '---\ntitle: " Trial "\n---\n\n# Trial\n',
      'plain.md': 'No heading.\n',
    };
    const read = readRepository(repo({ ...pages, 'SUMMARY.md': '# Summary\n\n* [Home](README.md)\n* [Document an API](openapi.md)\n* [Free trials](trial.md)\n* [Plain](plain.md)\n' }));
    expect(read.content.pages.map((p) => p.title)).toEqual(['Home', 'Document an API', ' Trial ', 'Plain']);
    const folders = readRepository(repo(pages));
    // (The folders' order is by file name.)
    expect(folders.content.pages.map((p) => p.title)).toEqual(['Home', 'OpenAPI', 'plain', ' Trial ']);
    // Written back, the file says the page's title, as GitBook writes it.
    const written = writeRepository(read.content, read.fileBytes, { previousPaths: read.paths });
    expect(text(written.files, 'openapi.md')).toBe('# Document an API\n\nSpecs.\n');
    expect(text(written.files, 'SUMMARY.md')).toContain('* [Document an API](openapi.md)\n');
  });
});

describe("git sync format: SUMMARY.md's link titles and group anchors", () => {
  // As GitBook writes them (GitbookIO/public-docs: documentation/SUMMARY.md lines 5 and 96, guides/SUMMARY.md line 7).
  const titled = [
    '# Table of contents',
    '',
    '* [Home](README.md "Start here")',
    '* [The complete guide \\[updated for 2026\\]](guide.md "How to publish")',
    '* [Plain](plain.md)',
    '* [Elsewhere](https://example.com/docs "Outside")',
    '',
    '## Get Started <a href="#getting-started" id="getting-started"></a>',
    '',
    '* [Quickstart](getting-started/quickstart.md "Quick")',
    '',
    '## Editing & publishing',
    '',
    '* [Drafts](editing-and-publishing/drafts.md)',
    '',
  ].join('\n');
  const files = {
    'SUMMARY.md': titled,
    'README.md': '# Home\n',
    'guide.md': '# The complete guide [updated for 2026]\n',
    'plain.md': '# Plain\n',
    'getting-started/quickstart.md': '# Quickstart\n',
    'editing-and-publishing/drafts.md': '# Drafts\n',
  };

  it('reads a quoted title as the page’s link title and an anchor after a group heading as its slug', () => {
    const read = readRepository(repo(files));
    const by = (title: string) => read.content.pages.find((p) => p.title === title)!;
    expect(by('Home').linkTitle).toBe('Start here');
    expect(by('The complete guide [updated for 2026]').linkTitle).toBe('How to publish');
    expect(by('Plain').linkTitle).toBeUndefined();
    expect(by('Elsewhere')).toMatchObject({ type: 'link', linkTitle: 'Outside' });
    expect(by('Get Started')).toMatchObject({ type: 'group', slug: 'getting-started' });
    expect(by('Editing & publishing')).toMatchObject({ type: 'group', slug: 'editing-and-publishing' });
    expect(by('Quickstart').linkTitle).toBe('Quick');
  });

  it('writes them back byte for byte, and an edited link title changes only its line', () => {
    const read = readRepository(repo(files));
    const written = writeRepository(read.content, read.fileBytes, { previousPaths: read.paths });
    expect(text(written.files, 'SUMMARY.md')).toBe(titled);
    const again = readRepository(written.files, { previous: read.content, previousPaths: written.paths });
    expect(again.content).toEqual(read.content);
    const pages = read.content.pages.map((p) => (p.title === 'Quickstart' ? { ...p, linkTitle: 'Go' } : p.title === 'Plain' ? { ...p, linkTitle: 'Simple' } : p));
    const edited = text(writeRepository({ ...read.content, pages }, read.fileBytes, { previousPaths: read.paths }).files, 'SUMMARY.md');
    expect(edited).toBe(titled.replace('"Quick"', '"Go"').replace('[Plain](plain.md)', '[Plain](plain.md "Simple")'));
  });
});
