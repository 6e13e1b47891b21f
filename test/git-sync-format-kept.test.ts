// Git Sync's format keeps what a GitBook repository says beside its pages: `.gitbook/tags.yaml` (the page
// tags, kept as its text, written back byte for byte, the pages' front matter `tags` checked against it)
// and `.gitbook.yaml`'s redirects (the space's own: old path → the page, following the page when it moves).
import { describe, expect, it } from 'vitest';
import { mergeContent } from '../server/content/merge.js';
import { readRepository, RepositoryFormatError, writeRepository, type RepositoryFiles } from '../server/git-sync/format/index.js';

const encoder = new TextEncoder();
const decoder = new TextDecoder();
const repo = (entries: Record<string, string | Uint8Array>): RepositoryFiles => new Map(Object.entries(entries).map(([p, v]) => [p, typeof v === 'string' ? encoder.encode(v) : v]));
const text = (files: RepositoryFiles, path: string) => decoder.decode(files.get(path)!);

// As GitBook writes it (GitbookIO/public-docs, documentation/.gitbook/tags.yaml), a comment and odd spacing added.
const tagsYaml = '# Page tags\n- tag: beta\n  label: Beta\n  icon: flask-round-potion\n- tag:   new\n  label: New\n  icon: sparkles\n  color: $primary\n';
const pages = {
  'SUMMARY.md': '# Table of contents\n\n* [Home](README.md)\n* [Tagged](tagged.md)\n* [Guide](guide/README.md)\n',
  'README.md': '# Home\n',
  'tagged.md': '---\ntags:\n  - beta\n  - tag: new\n    primary: true\n  - missing\n---\n\n# Tagged\n',
  'guide/README.md': '# Guide\n',
};

describe('.gitbook/tags.yaml', () => {
  it('is kept as it was and written back byte for byte; a page tag it does not define is a warning', () => {
    const bom = new Uint8Array([0xef, 0xbb, 0xbf, ...encoder.encode(tagsYaml)]);
    const read = readRepository(repo({ ...pages, '.gitbook/tags.yaml': bom }));
    expect(read.warnings).toEqual(['tagged.md: tag "missing" is not defined in .gitbook/tags.yaml']);
    expect(read.content.tagsFile).toBe(`\uFEFF${tagsYaml}`);
    const written = writeRepository(read.content, read.fileBytes, { previousPaths: read.paths });
    expect(written.files.get('.gitbook/tags.yaml')).toEqual(bom);
    // The page keeps its tags as front matter, written back as they were.
    expect(text(written.files, 'tagged.md')).toBe(pages['tagged.md']);
  });

  it('is under the docs root of .gitbook.yaml; a repository without one writes none', () => {
    const read = readRepository(repo({ '.gitbook.yaml': 'root: ./docs/\n', ...Object.fromEntries(Object.entries(pages).map(([p, v]) => [`docs/${p}`, v])), 'docs/.gitbook/tags.yaml': tagsYaml }));
    expect(read.content.tagsFile).toBe(tagsYaml);
    expect(text(writeRepository(read.content, read.fileBytes, { structure: read.structure }).files, 'docs/.gitbook/tags.yaml')).toBe(tagsYaml);
    const none = readRepository(repo(pages));
    expect(none.content.tagsFile).toBeUndefined();
    expect(none.warnings).toEqual([]);
    expect([...writeRepository(none.content, none.fileBytes).files.keys()].filter((p) => p.startsWith('.gitbook/'))).toEqual([]);
  });

  it('refuses a tags file that is not a list of tags, naming the file and the entry', () => {
    const bad = (yaml: string) => () => readRepository(repo({ ...pages, '.gitbook/tags.yaml': yaml }));
    expect(bad('tag: beta\n')).toThrow(new RepositoryFormatError('.gitbook/tags.yaml', 'must be a list of tags (tag, label, icon, color)'));
    expect(bad('- tag: beta\n- label: No name\n')).toThrow(new RepositoryFormatError('.gitbook/tags.yaml', 'entry 2 must have a tag (its name)'));
    expect(bad('- tag: beta\n  color: [1]\n')).toThrow(new RepositoryFormatError('.gitbook/tags.yaml', 'tag beta: color must be text'));
    expect(bad('- [\n')).toThrow(RepositoryFormatError);
  });

  it('merges as a file: the side that changed it wins, both changing it differently is a conflict', () => {
    const base = readRepository(repo({ ...pages, '.gitbook/tags.yaml': tagsYaml })).content;
    const changed = { ...base, tagsFile: `${tagsYaml}- tag: pro\n` };
    expect(mergeContent(base, changed, base).tagsFile).toBe(changed.tagsFile);
    expect(mergeContent(base, base, changed).tagsFile).toBe(changed.tagsFile);
    expect(() => mergeContent(base, changed, { ...base, tagsFile: '- tag: other\n' })).toThrow(/\.gitbook\/tags\.yaml/);
  });
});

describe(".gitbook.yaml's redirects", () => {
  const config = 'redirects:\n  old/home: README.md\n  /previous/guide/: ./guide/README.md\n  gone: nowhere.md\n';

  it('are the space\'s redirects to the pages their files are; one to no page is a warning', () => {
    const read = readRepository(repo({ ...pages, '.gitbook.yaml': config, 'nowhere.md': '# Not listed\n' }));
    const id = (title: string) => read.content.pages.find((p) => p.title === title)!.id;
    expect(read.content.redirects).toEqual({ 'old/home': id('Home'), 'previous/guide': id('Guide') });
    expect(read.warnings).toEqual(['nowhere.md: not in SUMMARY.md: not read as a page', '.gitbook.yaml: the redirect of gone leads to nowhere.md, which is no page: not kept']);
  });

  it('are written back to where their pages are now, and the branch\'s own say what they say', () => {
    const read = readRepository(repo({ ...pages, '.gitbook.yaml': config }));
    const guide = read.content.pages.find((p) => p.title === 'Guide')!;
    // The guide's slug changes: its file moves, and its redirect follows it.
    const moved = { ...read.content, pages: read.content.pages.map((p) => (p.id === guide.id ? { ...p, slug: 'handbook' } : p)) };
    const written = writeRepository(moved, read.fileBytes, { previousPaths: read.paths });
    expect(text(written.files, '.gitbook.yaml')).toBe('root: ./\nstructure:\n  readme: README.md\n  summary: SUMMARY.md\nredirects:\n  old/home: README.md\n  previous/guide: handbook.md\n');
    const branch = writeRepository(moved, read.fileBytes, { previousPaths: read.paths, redirects: { '/previous/guide/': 'guide/README.md' } });
    expect(text(branch.files, '.gitbook.yaml')).toContain('redirects:\n  /previous/guide/: guide/README.md\n  old/home: README.md\n');
    // A redirect to a page the space no longer holds is left out, with a warning.
    const deleted = { ...read.content, pages: read.content.pages.filter((p) => p.id !== guide.id) };
    const out = writeRepository(deleted, read.fileBytes, { previousPaths: read.paths });
    expect(text(out.files, '.gitbook.yaml')).not.toContain('previous/guide');
    expect(out.warnings).toEqual([`.gitbook.yaml: the redirect of previous/guide leads to page ${guide.id}, which is no document page of the space: not written`]);
  });
});
