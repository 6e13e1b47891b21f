// GitBook's repository format (server/git-sync/format): the fixture repository written for these tests
// (test/fixtures/git-repository: `.gitbook.yaml` with a root and redirects, SUMMARY.md with groups and
// nesting, front matter, every block Markdown can say, assets, a reusable content under
// `.gitbook/includes/` that a page includes) read into the expected pages, tree, blocks
// and files; repository → content → repository → content gives the same content, ids, keys and order
// keys included; content → repository → an empty space gives the same content but for ids and block keys
// (handmade edge cases and generated trees); a re-import keeps ids and keys and changes only what the
// repository changed; limits and bad input fail with the file named. Pure: no database, no network.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { nestedBlockTypes, topLevelBlockTypes } from '../contract/document.js';
import { stableJson } from '../server/content/block-keys.js';
import { markdownToDocument, type Block, type Document } from '../server/content/markdown-document.js';
import { childrenOf, type RevisionContent, type StoredFile, type StoredPage } from '../server/content/revision-content.js';
import { formatLimits, readRepository, RepositoryFormatError, writeRepository, type RepositoryFiles } from '../server/git-sync/format/index.js';

const fixtureRoot = join(import.meta.dirname, 'fixtures', 'git-repository');
const encoder = new TextEncoder();
const decoder = new TextDecoder();

function fixture(): RepositoryFiles {
  const files: RepositoryFiles = new Map();
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walk(path);
      else files.set(relative(fixtureRoot, path).split('\\').join('/'), new Uint8Array(readFileSync(path)));
    }
  };
  walk(fixtureRoot);
  return files;
}

const repo = (entries: Record<string, string | Uint8Array>): RepositoryFiles => new Map(Object.entries(entries).map(([p, v]) => [p, typeof v === 'string' ? encoder.encode(v) : v]));
const text = (files: RepositoryFiles, path: string) => decoder.decode(files.get(path)!);

/** Every block, inline and mark type of a document, and every reference. */
function walk(doc: Document) {
  const blocks = new Set<string>();
  const inlines = new Set<string>();
  const marks = new Set<string>();
  const refs: unknown[] = [];
  const visit = (node: { object: string; type?: string; data?: Record<string, unknown>; nodes?: unknown[]; leaves?: { marks?: { type: string }[] }[] }) => {
    if (node.object === 'block') blocks.add(node.type!);
    if (node.object === 'inline') inlines.add(node.type!);
    if (node.data?.ref) refs.push(node.data.ref);
    for (const leaf of node.leaves ?? []) for (const m of leaf.marks ?? []) marks.add(m.type);
    for (const child of (node.nodes ?? []) as (typeof node)[]) visit(child);
  };
  for (const b of doc.nodes) visit(b as never);
  return { blocks, inlines, marks, refs };
}

/** The tree as `title (path)` lines, indented by depth. */
function outline(content: RevisionContent, paths: Map<string, string>): string[] {
  const out: string[] = [];
  const visit = (parent: string | null, depth: number) => {
    for (const p of childrenOf(content, parent)) {
      out.push(`${'  '.repeat(depth)}${p.type === 'group' ? '## ' : ''}${p.title} (${paths.get(p.id)})`);
      visit(p.id, depth + 1);
    }
  };
  visit(null, 0);
  return out;
}

/**
 * The content with ids named by tree order (`page:3`) and file order by name (`file:1`), block keys, order
 * keys and dates left out: what must survive a trip through a repository into an empty space.
 */
function canonical(content: RevisionContent): unknown {
  const names = new Map<string, string>();
  const ordered: StoredPage[] = [];
  const visit = (parent: string | null) => {
    for (const p of childrenOf(content, parent)) {
      names.set(p.id, `page:${ordered.length}`);
      ordered.push(p);
      visit(p.id);
    }
  };
  visit(null);
  const files = [...content.files].sort((a, b) => (a.name < b.name ? -1 : 1));
  files.forEach((f, i) => names.set(f.id, `file:${i}`));
  const reusables = [...content.reusableContents].sort((a, b) => (a.title < b.title ? -1 : 1));
  reusables.forEach((r, i) => names.set(r.id, `reusable:${i}`));
  const rename = (value: unknown): unknown => {
    if (typeof value === 'string') return names.get(value) ?? value;
    if (Array.isArray(value)) return value.map(rename);
    if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, k === 'key' ? undefined : rename(v)]));
    return value;
  };
  const pages = ordered.map(({ id, position: _position, createdAt: _c, updatedAt: _u, ...rest }) => rename({ id, ...rest }));
  return JSON.parse(stableJson({ pages, files: files.map((f) => rename(f)), reusableContents: reusables.map((r) => rename(r)), variables: content.variables }, true));
}

function expectFormatError(run: () => unknown, path: string, reason: RegExp) {
  let caught: unknown;
  try {
    run();
  } catch (error) {
    caught = error;
  }
  expect(caught).toBeInstanceOf(RepositoryFormatError);
  expect((caught as RepositoryFormatError).path).toBe(path);
  expect((caught as RepositoryFormatError).message).toMatch(reason);
}

describe('reading the fixture repository', () => {
  const read = readRepository(fixture());
  const { content, paths } = read;
  const byTitle = (title: string) => content.pages.find((p) => p.title === title)!;

  it('gives the tree of SUMMARY.md: the readme first, groups as headings, nesting as list nesting', () => {
    expect(read.warnings).toEqual([]);
    expect(outline(content, paths)).toEqual([
      'Welcome to Lighthouse (docs/README.md)',
      'Quickstart (docs/quickstart.md)',
      '## Guides (docs/guides/)',
      '  Installing Lighthouse (docs/guides/installing/README.md)',
      '    On Linux (docs/guides/installing/linux.md)',
      '    On macOS (docs/guides/installing/macos.md)',
      '  Configuration (docs/guides/configuration.md)',
      '  A tour of the blocks (docs/guides/blocks-tour.md)',
      '## Reference (docs/reference/)',
      '  Command line (docs/reference/cli.md)',
      '  Release notes (docs/reference/release-notes.md)',
    ]);
    expect(byTitle('Guides').type).toBe('group');
    expect(byTitle('Installing Lighthouse').slug).toBe('installing');
    expect(byTitle('On Linux').slug).toBe('linux');
    expect(byTitle('Guides').slug).toBe('guides');
    expect(byTitle('Welcome to Lighthouse').slug).toBe('welcome-to-lighthouse');
    expect(read.structure).toEqual({ root: 'docs', readme: 'README.md', summary: 'SUMMARY.md' });
    expect(read.redirects).toEqual({ setup: 'guides/installing/README.md', 'old/linux-install': 'guides/installing/linux.md' });
  });

  it('reads front matter into the page fields and the `# Title` line into the title, not the document', () => {
    expect(byTitle('Welcome to Lighthouse')).toMatchObject({ description: 'Lighthouse watches your services and tells you when one goes dark.', emoji: '1f4a1', hidden: false });
    expect(byTitle('Quickstart')).toMatchObject({ description: 'Watch your first service in five minutes.', icon: 'rocket' });
    expect(byTitle('On macOS').hidden).toBe(true);
    expect(byTitle('Configuration')).toMatchObject({ icon: 'gear', noIndex: true, noRobotsIndex: false });
    expect(byTitle('Release notes')).toMatchObject({ noRobotsIndex: true, noIndex: false });
    for (const page of content.pages.filter((p) => p.type === 'document')) {
      expect(page.document!.nodes[0].type).not.toBe('heading-1');
      expect(JSON.stringify(page.document)).not.toContain('description:');
    }
  });

  it('reads every block, inline and mark Markdown can say, each block with a key', () => {
    const seen = { blocks: new Set<string>(), inlines: new Set<string>(), marks: new Set<string>() };
    const keys = new Set<string>();
    for (const page of content.pages) {
      if (!page.document) continue;
      const w = walk(page.document);
      w.blocks.forEach((b) => seen.blocks.add(b));
      w.inlines.forEach((b) => seen.inlines.add(b));
      w.marks.forEach((b) => seen.marks.add(b));
      const collect = (blocks: Block[]) =>
        blocks.forEach((b) => {
          expect(typeof b.key).toBe('string');
          keys.add(b.key!);
          collect((b.nodes ?? []).filter((n): n is Block => n.object === 'block'));
        });
      collect(page.document.nodes);
    }
    // Blocks GitBook's Markdown has no syntax for are in the Document only (docs/content.md).
    const noSyntax = ['prompt', 'drawing', 'swagger', 'openapi-operation', 'openapi-schemas', 'openapi-webhook', 'integration', 'if'];
    const expected = [...topLevelBlockTypes.filter((t) => !noSyntax.includes(t)), ...nestedBlockTypes, 'heading-3'].sort();
    expect([...seen.blocks].sort()).toEqual([...new Set(expected)]);
    expect([...seen.inlines].sort()).toEqual(['inline-image', 'inline-math', 'link']);
    expect([...seen.marks].sort()).toEqual(['bold', 'code', 'color', 'italic', 'keyboard', 'strikethrough', 'subscript', 'superscript']);
    const tour = byTitle('A tour of the blocks').document!;
    expect(tour.nodes.map((b) => b.type)).toEqual(['paragraph', 'columns', 'images', 'embed', 'math', 'divider', 'heading-1', 'updates']);
    const linux = byTitle('On Linux').document!;
    expect(linux.nodes.map((b) => b.type)).toEqual(['tabs', 'hint', 'list-ordered']);
    expect(linux.nodes[1].data).toEqual({ style: 'warning' });
    const code = (byTitle('Quickstart').document!.nodes[0].nodes![1] as Block).nodes!.find((n) => n.object === 'block' && n.type === 'code') as Block;
    expect(code.data).toEqual({ syntax: 'yaml', title: 'lighthouse.yaml', lineNumbers: true });
  });

  it('reads .gitbook/includes/ as reusable contents, and {% include %} as a reference to one', () => {
    expect(content.reusableContents).toHaveLength(1);
    const [help] = content.reusableContents;
    expect(help.id).toMatch(/^rsc_/);
    expect(help.title).toBe('Getting help');
    expect(paths.get(help.id)).toBe('docs/.gitbook/includes/getting-help.md');
    expect(help.document!.nodes.map((b) => b.type)).toEqual(['hint']);
    expect(typeof help.document!.nodes[0].key).toBe('string');
    // A link in the include file resolves from the include's folder to the page.
    expect(walk(help.document!).refs).toEqual([{ kind: 'page', page: byTitle('Quickstart').id }]);
    const cli = byTitle('Command line').document!;
    expect(cli.nodes.at(-1)).toMatchObject({ type: 'reusable-content', isVoid: true, data: { ref: { kind: 'reusable-content', reusableContent: help.id } } });
  });

  it('writes the reusable contents back to their include files, and each page includes them by relative path', () => {
    const written = writeRepository(content, read.fileBytes, { structure: read.structure, previousPaths: paths, redirects: read.redirects });
    expect(text(written.files, 'docs/.gitbook/includes/getting-help.md')).toBe(text(fixture(), 'docs/.gitbook/includes/getting-help.md'));
    expect(text(written.files, 'docs/reference/cli.md')).toContain('{% include "../.gitbook/includes/getting-help.md" %}');
    // Without the paths it was read from, the file is named by its title; a second one of the same title gets a suffix.
    const twice = { ...content, reusableContents: [...content.reusableContents, { ...content.reusableContents[0], id: 'rsc_01JD3QN4H8ZP2RCXYZ' }] };
    const fresh = writeRepository(twice, read.fileBytes, { structure: read.structure });
    expect([...fresh.files.keys()].filter((p) => p.includes('/includes/')).sort()).toEqual(['docs/.gitbook/includes/getting-help-2.md', 'docs/.gitbook/includes/getting-help.md']);
    const back = readRepository(fresh.files);
    expect(back.content.reusableContents.map((r) => r.title)).toEqual(['Getting help', 'Getting help']);
    // An include that names no file stays a reference to what it names; a file in a sub-folder is not read, with a warning.
    const odd = readRepository(repo({ 'README.md': '# Home\n\n{% include ".gitbook/includes/missing.md" %}\n', '.gitbook/includes/deep/x.md': 'x' }));
    expect(odd.content.reusableContents).toEqual([]);
    expect(odd.warnings).toEqual([
      '.gitbook/includes/deep/x.md: not a Markdown file directly under .gitbook/includes: not read as a reusable content',
      'README.md: {% include ".gitbook/includes/missing.md" %} names no reusable content of the space (no file under .gitbook/includes/): kept as a reference to ".gitbook/includes/missing.md"',
    ]);
    expect(odd.content.pages[0].document!.nodes[0].data).toEqual({ ref: { kind: 'reusable-content', reusableContent: '.gitbook/includes/missing.md' } });
  });

  it("writes another space's reusable content as a gitbook: include that reads back to the same block; reports dangling includes both ways", () => {
    const own = { id: 'rsc_own000000001', title: 'Own', document: markdownToDocument('Own text.') };
    const include = (ref: object) => ({ object: 'block', type: 'reusable-content', isVoid: true, data: { ref: { kind: 'reusable-content', ...ref } } }) as unknown as Block;
    const page: StoredPage = {
      id: 'pag_inc000000001',
      parent: null,
      position: 'a0',
      type: 'document',
      title: 'Home',
      slug: 'home',
      document: { object: 'document', data: {}, nodes: [include({ reusableContent: 'rsc_own000000001' }), include({ reusableContent: 'rsc_theirs000001', space: 'spc_other0000001' }), include({ reusableContent: 'rsc_gone00000001' })] } as Document,
      hidden: false,
      noIndex: false,
      noRobotsIndex: false,
      createdAt: '2026-01-01T00:00:00.000Z',
      updatedAt: '2026-01-01T00:00:00.000Z',
    };
    const content: RevisionContent = { pages: [page], files: [], variables: {}, reusableContents: [own] };
    const written = writeRepository(content, new Map());
    const readme = text(written.files, 'README.md');
    expect(readme).toContain('{% include ".gitbook/includes/own.md" %}');
    expect(readme).toContain('{% include "gitbook:spaces/spc_other0000001/reusable-contents/rsc_theirs000001" %}');
    expect(readme).toContain('{% include "rsc_gone00000001" %}');
    expect(written.warnings).toEqual(['README.md: {% include "rsc_gone00000001" %} names no reusable content of the space (no file under .gitbook/includes/): kept as a reference to "rsc_gone00000001"']);

    // Into an empty space: the same three references (the own one under a new id), the same warning.
    const fresh = readRepository(written.files);
    const [ownRead] = fresh.content.reusableContents;
    expect(ownRead.title).toBe('Own');
    expect(fresh.content.pages[0].document!.nodes.map((n) => n.data)).toEqual([
      { ref: { kind: 'reusable-content', reusableContent: ownRead.id } },
      { ref: { kind: 'reusable-content', reusableContent: 'rsc_theirs000001', space: 'spc_other0000001' } },
      { ref: { kind: 'reusable-content', reusableContent: 'rsc_gone00000001' } },
    ]);
    expect(fresh.warnings).toEqual(written.warnings);
    // Written again from what was read: the same bytes.
    expect(text(writeRepository(fresh.content, new Map()).files, 'README.md')).toBe(readme);
  });

  it('reads the assets as files, and links and images to pages and assets as references', () => {
    const files = [...content.files].sort((a, b) => (a.name < b.name ? -1 : 1));
    expect(files.map(({ id: _id, ...f }) => f)).toEqual([
      { name: 'beacon.svg', contentType: 'image/svg+xml', size: 190, dimensions: { width: 16, height: 24 } },
      { name: 'install-checklist.pdf', contentType: 'application/pdf', size: files[1].size },
      { name: 'lighthouse-logo.png', contentType: 'image/png', size: files[2].size, dimensions: { width: 8, height: 4 } },
    ]);
    for (const f of files) {
      expect(f.id).toMatch(/^fil_/);
      expect(read.fileBytes.get(f.id)).toEqual(fixture().get(paths.get(f.id)!));
    }
    const file = (name: string) => files.find((f) => f.name === name)!.id;
    const page = (title: string) => byTitle(title).id;
    expect(walk(byTitle('Welcome to Lighthouse').document!).refs).toEqual([
      { kind: 'file', file: file('lighthouse-logo.png') },
      { kind: 'page', page: page('Quickstart') },
      { kind: 'page', page: page('On Linux') },
      { kind: 'anchor', page: page('Command line'), anchor: 'flags' },
    ]);
    expect(walk(byTitle('Installing Lighthouse').document!).refs).toEqual([
      { kind: 'page', page: page('On Linux') },
      { kind: 'page', page: page('On macOS') },
      { kind: 'file', file: file('install-checklist.pdf') },
    ]);
    // A relative link up a folder, and a web link with its title.
    expect(walk(byTitle('On Linux').document!).refs).toEqual([{ kind: 'page', page: page('Configuration') }]);
    expect(walk(byTitle('Release notes').document!).refs).toEqual([{ kind: 'url', url: 'https://example.com/forum' }]);
    expect(walk(byTitle('A tour of the blocks').document!).refs).toEqual([
      { kind: 'file', file: file('beacon.svg') },
      { kind: 'file', file: file('lighthouse-logo.png') },
      { kind: 'file', file: file('beacon.svg') },
    ]);
  });
});

describe('round trips', () => {
  it('repository → content → repository → content is the same content, ids, keys and order keys included', () => {
    const first = readRepository(fixture(), { now: new Date('2026-01-01T00:00:00Z') });
    const written = writeRepository(first.content, first.fileBytes, { structure: first.structure, previousPaths: first.paths, redirects: first.redirects });
    // Every page and file keeps the path it was read from.
    expect(written.paths).toEqual(first.paths);
    const second = readRepository(written.files, { previous: first.content, previousPaths: written.paths, now: new Date('2026-02-01T00:00:00Z') });
    expect(second.warnings).toEqual([]);
    expect(second.content).toEqual(first.content);
    expect(second.redirects).toEqual(first.redirects);
    expect(second.fileBytes).toEqual(first.fileBytes);
    // Unchanged pages are the same objects: no new `updatedAt`.
    for (const page of second.content.pages) expect(page.updatedAt).toBe('2026-01-01T00:00:00.000Z');
    // An export of unchanged content writes the same bytes.
    const again = writeRepository(second.content, second.fileBytes, { structure: second.structure, previousPaths: second.paths, redirects: second.redirects });
    expect(again.files).toEqual(written.files);
    // The files GitBook reads are where the fixture has them.
    const fixturePaths = [...fixture().keys()].sort();
    expect([...written.files.keys()].sort()).toEqual(fixturePaths);
  });

  it('content → repository → an empty space is the same content but for ids and block keys', () => {
    const { content, fileBytes: bytes } = readRepository(fixture());
    const written = writeRepository(content, bytes);
    const back = readRepository(written.files);
    expect(back.warnings).toEqual([]);
    expect(canonical(back.content)).toEqual(canonical(content));
    for (const page of back.content.pages) expect(content.pages.some((p) => p.id === page.id)).toBe(false);
  });

  it('keeps what only the page record holds: slugs the path cannot say, emoji, condition, flags, variables', () => {
    const doc = (md: string): Document => markdownToDocument(md);
    const page = (id: string, parent: string | null, position: string, fields: Partial<StoredPage>): StoredPage => ({
      id,
      parent,
      position,
      type: 'document',
      title: id,
      slug: id,
      hidden: false,
      noIndex: false,
      noRobotsIndex: false,
      createdAt: '2026-01-01T00:00:00.000Z',
      updatedAt: '2026-01-01T00:00:00.000Z',
      document: doc(''),
      ...fields,
    });
    const logo: StoredFile = { id: 'fil_logo00000001', name: 'logo.png', contentType: 'image/png', size: 3 };
    const logo2: StoredFile = { id: 'fil_logo00000002', name: 'notes.txt', contentType: 'text/plain', size: 2 };
    const content: RevisionContent = {
      pages: [
        page('pag_home00000001', null, 'a0', { title: 'Home *page*', slug: 'start', emoji: '🚀', condition: 'visitor.claims.plan == "pro"', document: doc('Hello [guide](pag_guide0000001#setup) and ![logo](fil_logo00000001).') }),
        page('pag_guide0000001', null, 'a1', { title: 'Guide', slug: 'guide', description: 'Line one: "quoted" # not a comment', hidden: true, noIndex: true, noRobotsIndex: true, document: doc('# Heading one in the body\n\nText.') }),
        page('pag_child0000001', 'pag_guide0000001', 'a0', { title: 'Same slug A', slug: 'same' }),
        page('pag_child0000002', 'pag_guide0000001', 'a1', { title: 'Same slug B', slug: 'same', document: doc('Back to [the guide](pag_guide0000001) and [home](pag_home00000001).') }),
        page('pag_child0000003', 'pag_guide0000001', 'a2', { title: 'Readme by name', slug: 'readme' }),
        page('pag_summ00000001', null, 'a2', { title: 'Summary', slug: 'summary' }),
        { ...page('pag_group0000001', null, 'a3', { title: 'A group', slug: 'grouped' }), type: 'group', document: undefined },
        page('pag_ingrp000001', 'pag_group0000001', 'a0', { title: 'In the group', slug: 'inside', document: doc('See [the other file](fil_logo00000002) and [this group](pag_group0000001).') }),
        page('pag_after0000001', null, 'a4', { title: 'After the group', slug: 'after' }),
      ],
      files: [logo, logo2],
      variables: { product: 'Lighthouse', version: '1.2' },
      reusableContents: [],
    };
    const bytes = new Map([
      [logo.id, new Uint8Array([1, 2, 3])],
      [logo2.id, new Uint8Array([4, 5])],
    ]);
    const written = writeRepository(content, bytes, { projectDirectory: 'site/docs' });
    expect([...written.files.keys()].sort()).toEqual([
      'site/docs/.gitbook.yaml',
      'site/docs/.gitbook/assets/logo.png',
      'site/docs/.gitbook/assets/notes.txt',
      'site/docs/.gitbook/vars.yaml',
      'site/docs/README.md',
      'site/docs/SUMMARY.md',
      'site/docs/after.md',
      'site/docs/grouped/inside.md',
      'site/docs/guide/README.md',
      'site/docs/guide/readme-2.md',
      'site/docs/guide/same-2.md',
      'site/docs/guide/same.md',
      'site/docs/summary-2.md',
    ]);
    expect(text(written.files, 'site/docs/SUMMARY.md')).toBe(
      [
        '# Table of contents',
        '',
        '* [Home \\*page\\*](README.md)',
        '* [Guide](guide/README.md)',
        '  * [Same slug A](guide/same.md)',
        '  * [Same slug B](guide/same-2.md)',
        '  * [Readme by name](guide/readme-2.md)',
        '* [Summary](summary-2.md)',
        '',
        '## A group <a href="#grouped" id="grouped"></a>', // its slug is not its title's: GitBook's anchor says it
        '',
        '* [In the group](grouped/inside.md)',
        '',
        '***', // as GitBook closes a group
        '',
        '* [After the group](after.md)',
        '',
      ].join('\n'),
    );
    expect(text(written.files, 'site/docs/README.md')).toBe(
      ['---', 'emoji: 🚀', 'condition: visitor.claims.plan == "pro"', 'slug: start', '---', '', '# Home \\*page\\*', '', 'Hello [guide](guide/README.md#setup) and ![logo](.gitbook/assets/logo.png).', ''].join('\n'),
    );
    expect(text(written.files, 'site/docs/guide/same-2.md')).toContain('Back to [the guide](README.md) and [home](../README.md).');
    expect(text(written.files, 'site/docs/guide/same-2.md')).toMatch(/^---\nslug: same\n---\n/);
    expect(text(written.files, 'site/docs/grouped/inside.md')).toContain('[the other file](../.gitbook/assets/notes.txt) and [this group](../grouped/)');

    const back = readRepository(written.files, { projectDirectory: 'site/docs' });
    expect(back.warnings).toEqual([]);
    expect(canonical(back.content)).toEqual(canonical(content));
    expect(back.fileBytes.get(back.content.files.find((f) => f.name === 'logo.png')!.id)).toEqual(new Uint8Array([1, 2, 3]));
  });

  it('holds for generated trees of pages with links between them', () => {
    const slug = fc.constantFrom('intro', 'guide', 'setup', 'readme', 'summary', 'faq', 'same', 'api-v2', 'x');
    const title = fc.oneof(fc.constantFrom('Intro', 'A *starred* title', 'Brackets [1]', 'Émigré', '# hash', 'Back\\slash', ' padded ', 'two\nlines', ''), fc.stringMatching(/^[A-Za-z][A-Za-z0-9 ]{0,12}$/));
    const fields = fc.record({ slug, title, hidden: fc.boolean(), description: fc.option(fc.stringMatching(/^[ -~]{1,20}$/), { nil: undefined }), icon: fc.option(fc.constantFrom('gear', 'rocket'), { nil: undefined }) });
    // Each page: its parent among the pages before it (or the top), its fields, and the page it links to.
    const tree = fc.array(fc.tuple(fc.nat(), fields, fc.nat(), fc.constantFrom('plain', 'link', 'anchor', 'file')), { minLength: 1, maxLength: 12 });
    fc.assert(
      fc.property(tree, (specs) => {
        const ids = specs.map((_, i) => `pag_gen${String(i).padStart(9, '0')}`);
        const file: StoredFile = { id: 'fil_gen000000001', name: 'diagram.png', contentType: 'image/png', size: 1 };
        const pages: StoredPage[] = specs.map(([parentPick, f, target, kind], i) => {
          const parent = i === 0 || parentPick % 3 === 0 ? null : ids[parentPick % i];
          const to = ids[target % specs.length];
          const md = kind === 'link' ? `Go to [there](${to}).` : kind === 'anchor' ? `Go to [there](${to}#part).` : kind === 'file' ? `See ![d](${file.id}).` : 'Plain text.';
          return {
            id: ids[i],
            parent,
            position: `a${String(i).padStart(3, '0')}`,
            type: 'document',
            title: f.title,
            slug: f.slug,
            hidden: f.hidden,
            noIndex: false,
            noRobotsIndex: false,
            ...(f.description !== undefined && { description: f.description }),
            ...(f.icon !== undefined && { icon: f.icon }),
            createdAt: '2026-01-01T00:00:00.000Z',
            updatedAt: '2026-01-01T00:00:00.000Z',
            document: markdownToDocument(md),
          };
        });
        const content: RevisionContent = { pages, files: [file], variables: {}, reusableContents: [] };
        const written = writeRepository(content, new Map([[file.id, new Uint8Array([7])]]));
        const back = readRepository(written.files);
        expect(back.warnings).toEqual([]);
        expect(canonical(back.content)).toEqual(canonical(content));
      }),
      { numRuns: 60 },
    );
  });
});

describe('a re-import keeps what the repository did not change', () => {
  it('keeps ids, block keys, order keys and dates; an edited page gets a new date, a moved page a new order key', () => {
    const first = readRepository(fixture(), { now: new Date('2026-01-01T00:00:00Z') });
    const written = writeRepository(first.content, first.fileBytes, { structure: first.structure, previousPaths: first.paths, redirects: first.redirects });
    const files = new Map(written.files);
    // Edit one paragraph of the Linux page, and move "Release notes" above "Command line".
    files.set('docs/guides/installing/linux.md', encoder.encode(text(files, 'docs/guides/installing/linux.md').replace('The package starts the service at once', 'The package starts the service right away')));
    const summary = text(files, 'docs/SUMMARY.md');
    files.set('docs/SUMMARY.md', encoder.encode(summary.replace('* [Command line](reference/cli.md)\n* [Release notes](reference/release-notes.md)', '* [Release notes](reference/release-notes.md)\n* [Command line](reference/cli.md)')));
    const second = readRepository(files, { previous: first.content, previousPaths: written.paths, now: new Date('2026-03-01T00:00:00Z') });
    const before = new Map(first.content.pages.map((p) => [p.id, p]));
    expect(second.content.pages.map((p) => p.id).sort()).toEqual([...before.keys()].sort());
    const changed = second.content.pages.filter((p) => p !== before.get(p.id)).map((p) => p.title).sort();
    expect(changed).toEqual(['On Linux', 'Release notes']);
    const linux = second.content.pages.find((p) => p.title === 'On Linux')!;
    const oldLinux = before.get(linux.id)!;
    expect(linux.updatedAt).toBe('2026-03-01T00:00:00.000Z');
    expect(linux.createdAt).toBe(oldLinux.createdAt);
    expect(linux.document!.nodes.map((b) => b.key)).toEqual(oldLinux.document!.nodes.map((b) => b.key));
    expect(linux.document!.nodes[0]).toEqual(oldLinux.document!.nodes[0]);
    expect(stableJson(linux.document!.nodes[1])).not.toBe(stableJson(oldLinux.document!.nodes[1]));
    const notes = second.content.pages.find((p) => p.title === 'Release notes')!;
    const cli = second.content.pages.find((p) => p.title === 'Command line')!;
    expect(cli.position).toBe(before.get(cli.id)!.position);
    expect(notes.position < cli.position).toBe(true);
    expect(notes.document).toEqual(before.get(notes.id)!.document);
    expect(second.content.files).toEqual(first.content.files);
  });

  it('matches pages by the path an export would give them when no paths are known', () => {
    const first = readRepository(fixture());
    const written = writeRepository(first.content, first.fileBytes, { structure: first.structure });
    const second = readRepository(written.files, { previous: first.content });
    expect(second.content.pages.map((p) => p.id).sort()).toEqual(first.content.pages.map((p) => p.id).sort());
    expect(second.content.files.map((f) => f.id).sort()).toEqual(first.content.files.map((f) => f.id).sort());
  });
});

describe('repositories that are not the usual layout', () => {
  it('without SUMMARY.md, derives the tree from the folders (a README is its folder’s page, a top folder without one a group)', () => {
    const read = readRepository(
      repo({
        'README.md': '# Home\n',
        'b-page.md': '# B page\n',
        'a-guide/README.md': '# Guide\n',
        'a-guide/step.md': '# Step\n',
        'a-guide/deeper/inner.md': '# Inner\n',
        'topics/one.md': '# One\n',
        '.github/workflow.md': 'not docs',
        'notes.txt': 'not a page',
      }),
    );
    expect(outline(read.content, read.paths)).toEqual([
      'Home (README.md)',
      'Guide (a-guide/README.md)',
      '  Inner (a-guide/deeper/inner.md)',
      '  Step (a-guide/step.md)',
      'B page (b-page.md)',
      '## topics (topics/)',
      '  One (topics/one.md)',
    ]);
  });

  it('skips SUMMARY.md entries that name no page file, with a warning naming the line, and keeps their sub-entries (a URL or a file listed again is a link page)', () => {
    const read = readRepository(
      repo({
        'SUMMARY.md': '# Summary\n\n* [Home](README.md)\n* [Gone](gone.md)\n  * [Kept](kept.md)\n* [Web](https://example.com)\n* [Home again](README.md)\n* Just text\n* [Itself](SUMMARY.md)\n* [Hidden](.gitbook/x.md)\n',
        'README.md': '# Home\n',
        'kept.md': 'No heading here.\n',
        'stray.md': '# Stray\n',
        '.gitbook/x.md': '# Hidden\n',
      }),
    );
    // `Web` and `Home again` are link pages (test/git-sync-format-links.test.ts): no file of their own.
    expect(outline(read.content, read.paths)).toEqual(['Home (README.md)', 'Kept (kept.md)', 'Web (undefined)', 'Home again (undefined)']);
    expect(read.content.pages.filter((p) => p.type === 'link').map((p) => p.target)).toEqual([{ kind: 'url', url: 'https://example.com' }, { kind: 'page', page: read.content.pages.find((p) => p.slug !== 'kept' && p.type === 'document')!.id }]);
    expect(read.warnings).toEqual([
      'SUMMARY.md:4: "Gone" links to gone.md, which is not in the repository: skipped, its sub-entries kept in its place',
      'SUMMARY.md:8: "Just text" has no link to a page file: skipped',
      'SUMMARY.md:9: "Itself" links to the table of contents itself: skipped',
      'SUMMARY.md:10: "Hidden" links to .gitbook/x.md, not a Markdown file outside hidden folders: skipped',
      'stray.md: not in SUMMARY.md: not read as a page',
    ]);
    // A file without a `# Title` takes the title SUMMARY.md gives it.
    expect(read.content.pages.find((p) => p.slug === 'kept')!.title).toBe('Kept');
  });

  it('reads the docs of a project directory, and a root and structure of .gitbook.yaml', () => {
    const read = readRepository(
      repo({
        'packages/web/.gitbook.yaml': 'root: ./content/\nstructure:\n  readme: ./intro.md\n  summary: toc/SUMMARY.md\n',
        'packages/web/content/intro.md': '# Intro\n',
        'packages/web/content/toc/SUMMARY.md': '# TOC\n\n* [Intro](../intro.md)\n* [Other](../other.md)\n',
        'packages/web/content/other.md': '# Other\n',
        'README.md': '# The repository readme, not docs\n',
      }),
      { projectDirectory: 'packages/web' },
    );
    expect(outline(read.content, read.paths)).toEqual(['Intro (packages/web/content/intro.md)', 'Other (packages/web/content/other.md)']);
    const written = writeRepository(read.content, read.fileBytes, { projectDirectory: 'packages/web', structure: read.structure, previousPaths: read.paths });
    expect([...written.files.keys()].sort()).toEqual(['packages/web/.gitbook.yaml', 'packages/web/content/intro.md', 'packages/web/content/other.md', 'packages/web/content/toc/SUMMARY.md']);
    expect(text(written.files, 'packages/web/content/toc/SUMMARY.md')).toContain('* [Other](../other.md)');
    // A root written `/docs` is the project's `docs`; front matter keys with no page field are kept apart, as their YAML.
    const slash = readRepository(repo({ '.gitbook.yaml': 'root: /docs\n', 'docs/README.md': '---\nlayout:\n  width: wide\ndescription: Hi\n---\n# Home\n' }));
    expect(outline(slash.content, slash.paths)).toEqual(['Home (docs/README.md)']);
    expect(slash.content.pages[0]).toMatchObject({ description: 'Hi', title: 'Home', frontMatter: 'layout:\n  width: wide\n' });
  });

  it('keeps a repository’s own layout on export, and moves only the file of a page whose slug changed', () => {
    const read = readRepository(
      repo({
        'SUMMARY.md': '# Summary\n\n* [First](page1/README.md)\n  * [Odd place](part1/page1-2.md)\n  * [Renamed](page1/old-name.md)\n',
        'page1/README.md': '# First\n',
        'part1/page1-2.md': '# Odd place\n',
        'page1/old-name.md': '# Renamed\n',
      }),
    );
    const renamed = read.content.pages.find((p) => p.title === 'Renamed')!;
    renamed.slug = 'new-name';
    const written = writeRepository(read.content, read.fileBytes, { previousPaths: read.paths });
    expect([...written.files.keys()].sort()).toEqual(['.gitbook.yaml', 'README.md', 'SUMMARY.md', 'page1/new-name.md', 'part1/page1-2.md']);
    // The first page is the readme; its subpages stay where they were, or go where their slug says.
    expect(text(written.files, 'SUMMARY.md')).toContain('* [First](README.md)\n  * [Odd place](part1/page1-2.md)\n  * [Renamed](page1/new-name.md)');
    const back = readRepository(written.files, { previous: read.content, previousPaths: written.paths });
    expect(back.content.pages.map((p) => p.id).sort()).toEqual(read.content.pages.map((p) => p.id).sort());
  });

  it('reads an empty repository as an empty space, writes an empty space as configuration alone, and writes pages stored as Markdown', () => {
    expect(readRepository(new Map()).content).toEqual({ pages: [], files: [], variables: {}, reusableContents: [] });
    const empty = writeRepository({ pages: [], files: [], variables: {}, reusableContents: [] }, new Map());
    expect([...empty.files.keys()].sort()).toEqual(['.gitbook.yaml', 'SUMMARY.md']);
    expect(text(empty.files, 'SUMMARY.md')).toBe('# Table of contents\n');
    const legacy: StoredPage = { id: 'pag_legacy000001', parent: null, position: 'a0', type: 'document', title: 'Old', slug: 'old', markdown: '{% hint style="danger" %}\nStored as Markdown.\n{% endhint %}', hidden: false, noIndex: false, noRobotsIndex: false, createdAt: '', updatedAt: '' };
    const written = writeRepository({ pages: [legacy], files: [], variables: {}, reusableContents: [] }, new Map());
    expect(text(written.files, 'README.md')).toBe('# Old\n\n{% hint style="danger" %}\nStored as Markdown.\n{% endhint %}\n');
  });

  it('names the colliding asset deterministically, as GitBook numbers a second upload', () => {
    const files: StoredFile[] = [
      { id: 'fil_a00000000001', name: 'image.png', contentType: 'image/png', size: 1 },
      { id: 'fil_a00000000002', name: 'image.png', contentType: 'image/png', size: 1 },
      { id: 'fil_a00000000003', name: 'IMAGE.png', contentType: 'image/png', size: 1 },
      { id: 'fil_a00000000004', name: '../escape.png', contentType: 'image/png', size: 1 },
    ];
    const content: RevisionContent = { pages: [], files, variables: {}, reusableContents: [] };
    const written = writeRepository(content, new Map(files.map((f) => [f.id, new Uint8Array([1])])));
    expect(files.map((f) => written.paths.get(f.id))).toEqual(['.gitbook/assets/image.png', '.gitbook/assets/image (1).png', '.gitbook/assets/IMAGE (2).png', '.gitbook/assets/-escape.png']);
  });
});

describe('limits and bad input name the file', () => {
  it('refuses paths that leave the repository or the docs root', () => {
    expectFormatError(() => readRepository(repo({ '../outside.md': '# x' })), '../outside.md', /plain relative path/);
    expectFormatError(() => readRepository(repo({ 'a/../../b.md': '# x' })), 'a/../../b.md', /plain relative path/);
    expectFormatError(() => readRepository(repo({ '.gitbook.yaml': 'root: ../elsewhere/\n' })), '.gitbook.yaml (root)', /leaves the repository/);
    expectFormatError(() => readRepository(repo({ 'docs/.gitbook.yaml': 'root: ../../\n' }), { projectDirectory: 'docs' }), 'docs/.gitbook.yaml (root)', /leaves the repository/);
    expectFormatError(() => readRepository(repo({ 'SUMMARY.md': '* [Secret](../../etc/passwd.md)\n' })), 'SUMMARY.md', /line 1: the link \.\.\/\.\.\/etc\/passwd\.md leaves the docs root/);
    expectFormatError(() => readRepository(repo({}), { projectDirectory: '../up' }), 'projectDirectory', /leaves the repository/);
    expectFormatError(() => writeRepository({ pages: [], files: [], variables: {}, reusableContents: [] }, new Map(), { structure: { root: '..', readme: 'README.md', summary: 'SUMMARY.md' } }), 'options.structure.root', /leaves the repository/);
  });

  it('refuses too many files, too many bytes, a page file or an asset too large', () => {
    const many = new Map<string, Uint8Array>();
    for (let i = 0; i <= formatLimits.maxFiles; i++) many.set(`p/${String(i).padStart(5, '0')}.md`, new Uint8Array());
    expectFormatError(() => readRepository(many), `p/${String(formatLimits.maxFiles).padStart(5, '0')}.md`, /more than 10000 files/);
    // Files outside the project directory are not counted.
    expect(readRepository(many, { projectDirectory: 'other' }).content.pages).toEqual([]);
    // An operation's configured limits (GIT_SYNC_MAX_FILES, GIT_SYNC_MAX_DOCS_BYTES) stand in for the defaults, above or below them.
    expect(readRepository(many, { limits: { maxFiles: formatLimits.maxFiles + 1, maxTotalBytes: formatLimits.maxTotalBytes } }).content.pages.length).toBeGreaterThan(formatLimits.maxFiles);
    expectFormatError(() => readRepository(repo({ 'a.md': '# A', 'b.md': '# B', 'c.md': '# C' }), { limits: { maxFiles: 2, maxTotalBytes: 1024 } }), 'c.md', /more than 2 files/);
    const saved = formatLimits.maxTotalBytes;
    formatLimits.maxTotalBytes = 10;
    try {
      expectFormatError(() => readRepository(repo({ 'a.md': '12345', 'b.md': '123456' })), 'b.md', /more than 10 bytes/);
    } finally {
      formatLimits.maxTotalBytes = saved;
    }
    expectFormatError(() => readRepository(repo({ 'README.md': `# Big\n\n${'x'.repeat(formatLimits.maxMarkdownBytes)}` })), 'README.md', /larger than 1048576 bytes/);
    expectFormatError(() => readRepository(repo({ 'SUMMARY.md': `# S\n${' '.repeat(formatLimits.maxMarkdownBytes)}` })), 'SUMMARY.md', /larger than/);
    // An asset streamed to the file store is judged by the size it had (`assets`), its bytes not held here.
    const streamed = (size: number) => ({ assets: new Map([['.gitbook/assets/huge.gif', { size }]]) });
    expectFormatError(() => readRepository(repo({ '.gitbook/assets/huge.gif': new Uint8Array() }), streamed(100 * 1024 * 1024 + 1)), '.gitbook/assets/huge.gif', /larger than 104857600 bytes, the most an asset may have \(GIT_SYNC_MAX_ASSET_BYTES\)/);
    expect(readRepository(repo({ '.gitbook/assets/huge.gif': new Uint8Array() }), streamed(100 * 1024 * 1024)).content.files.map((f) => f.size)).toEqual([100 * 1024 * 1024]);
  });

  it('takes an operation\'s asset cap (GIT_SYNC_MAX_ASSET_BYTES) over the default, above or below it', () => {
    const limits = (maxAssetBytes: number) => ({ limits: { maxFiles: formatLimits.maxFiles, maxTotalBytes: formatLimits.maxTotalBytes, maxAssetBytes } });
    const files = repo({ '.gitbook/assets/shot.gif': new Uint8Array(2048) });
    expectFormatError(() => readRepository(files, limits(2047)), '.gitbook/assets/shot.gif', /larger than 2047 bytes/);
    expect(readRepository(files, limits(2048)).content.files.map((f) => [f.name, f.size])).toEqual([['shot.gif', 2048]]);
    const larger = { assets: new Map([['.gitbook/assets/shot.gif', { size: formatLimits.maxAssetBytes + 1 }]]) };
    expect(readRepository(files, { ...larger, ...limits(formatLimits.maxAssetBytes + 1) }).content.files[0].size).toBe(formatLimits.maxAssetBytes + 1);
  });

  it('refuses what cannot be read: bad YAML, bad front matter, text that is not UTF-8, NUL, nesting too deep', () => {
    expectFormatError(() => readRepository(repo({ '.gitbook.yaml': 'root: [unclosed\n' })), '.gitbook.yaml', /not valid YAML/);
    expectFormatError(() => readRepository(repo({ '.gitbook.yaml': '- a list\n' })), '.gitbook.yaml', /must be a mapping/);
    expectFormatError(() => readRepository(repo({ '.gitbook.yaml': 'redirects:\n  old: [1]\n' })), '.gitbook.yaml', /redirects\.old must be a path/);
    expectFormatError(() => readRepository(repo({ 'README.md': '---\nhidden: "yes"\n---\n# x\n' })), 'README.md', /front matter hidden must be true or false/);
    expectFormatError(() => readRepository(repo({ 'README.md': '---\ndescription: fine\n# never closed\n' })), 'README.md', /never closed/);
    expectFormatError(() => readRepository(repo({ 'README.md': '---\n: : :\n  - [\n---\n' })), 'README.md', /front matter is not valid YAML/);
    expectFormatError(() => readRepository(repo({ 'README.md': new Uint8Array([0x23, 0x20, 0xff, 0xfe]) })), 'README.md', /not UTF-8/);
    expectFormatError(() => readRepository(repo({ 'README.md': '# a\u0000b' })), 'README.md', /NUL/);
    expectFormatError(() => readRepository(repo({ 'README.md': `${'>'.repeat(100)} deep` })), 'README.md', /nested more than 64 deep|too deep/);
    expectFormatError(() => readRepository(repo({ '.gitbook/vars.yaml': 'name: [1, 2]\n' })), '.gitbook/vars.yaml', /variable name must be text/);
    const deep = Array.from({ length: formatLimits.maxDepth + 2 }, (_, i) => `${'  '.repeat(i)}* [P${i}](p${i}.md)`).join('\n');
    const deepFiles: Record<string, string> = { 'SUMMARY.md': deep };
    for (let i = 0; i < formatLimits.maxDepth + 2; i++) deepFiles[`p${i}.md`] = `# P${i}`;
    expectFormatError(() => readRepository(repo(deepFiles)), 'SUMMARY.md', /nests deeper than 32 levels/);
  });

  /** Content the format cannot lay out: a group under a document page. */
  const groupUnderPage = (): RevisionContent => {
    const base = { hidden: false, noIndex: false, noRobotsIndex: false, createdAt: '', updatedAt: '' };
    return {
      pages: [
        { ...base, id: 'pag_p00000000001', parent: null, position: 'a0', type: 'document', title: 'P', slug: 'p', document: markdownToDocument('x') },
        { ...base, id: 'pag_g00000000001', parent: 'pag_p00000000001', position: 'a0', type: 'group', title: 'G', slug: 'g' },
      ],
      files: [],
      variables: {},
      reusableContents: [],
    };
  };

  it('refuses to write what the format cannot say, naming where', () => {
    expectFormatError(() => writeRepository(groupUnderPage(), new Map()), 'SUMMARY.md', /group "G" \(pag_g00000000001\) is not at the top/);
    const missingBytes: RevisionContent = { pages: [], files: [{ id: 'fil_m00000000001', name: 'm.png', contentType: 'image/png', size: 1 }], variables: {}, reusableContents: [] };
    expectFormatError(() => writeRepository(missingBytes, new Map()), '.gitbook/assets/m.png', /the bytes of file "m.png" \(fil_m00000000001\) were not given/);
  });

  it('reads over previous content an export cannot lay out by the paths given, and says so in its warnings', () => {
    const previous = groupUnderPage();
    const read = readRepository(repo({ 'README.md': '# P\n\ny\n' }), { previous, previousPaths: new Map([['pag_p00000000001', 'README.md']]) });
    expect(read.content.pages.map((p) => [p.id, p.title])).toEqual([['pag_p00000000001', 'P']]);
    expect(read.warnings).toEqual([expect.stringMatching(/cannot be laid out as files \(SUMMARY\.md: group "G" \(pag_g00000000001\) is not at the top.*matched by the paths of the last sync only/)]);
  });
});
