// A repository page written as GitBook's Git Sync writes one (after its documentation: an inline <picture>
// with its dark variant, columns closing right after a figure, a cards table whose target is a page and
// whose cover is an asset, a grid table with a column width), read through Git Sync's format
// (server/git-sync/format) into Documents that validate against GitBook's schema with no tag or HTML in a
// text leaf, the assets as files (a name with spaces and parentheses written in HTML as it is); written back
// byte for byte; an edited cell changes exactly its line. And a page with GitBook's `*` lists, asset paths
// with spaces, tag attributes without quotes and integration props that are no text, under SUMMARY.md link
// titles and a group anchor: kept as the branch has them by an export, an edit changing its own lines only.
import { describe, expect, it } from 'vitest';
import { markdownToDocument } from '../server/content/markdown-document.js';
import { readRepository, writeRepository, type RepositoryFiles } from '../server/git-sync/format/index.js';
import { writtenReadRefs } from '../server/git-sync/format/refs.js';
import { keepSourceText } from '../server/git-sync/format/source-blocks.js';
import { gitbookDocumentErrors } from './support/gitbook-document.js';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const encoder = new TextEncoder();
const decoder = new TextDecoder();
const svg = (colour: string) => `<svg xmlns="http://www.w3.org/2000/svg" width="16" height="16"><rect width="16" height="16" fill="${colour}"/></svg>`;

const page = [
  '# Blocks',
  '',
  'Open the **Options menu** <picture><source srcset="../.gitbook/assets/menu_dark.svg" media="(prefers-color-scheme: dark)"><img src="../.gitbook/assets/menu_light.svg" alt="The Options menu icon"></picture>.',
  '',
  '{% columns %}',
  '{% column %}',
  '<figure><img src="../.gitbook/assets/cover (1).svg" alt="Cover"><figcaption><p>The cover</p></figcaption></figure>',
  '{% endcolumn %}',
  '',
  '{% column %}',
  'See [the home](../README.md).',
  '{% endcolumn %}',
  '{% endcolumns %}',
  '',
  '<table data-view="cards"><thead><tr><th></th><th data-hidden data-card-target data-type="content-ref"></th><th data-hidden data-card-cover data-type="image">Cover image</th></tr></thead><tbody><tr><td><strong>Home</strong></td><td><a href="../README.md">README.md</a></td><td><a href="../.gitbook/assets/cover (1).svg">cover (1).svg</a></td></tr></tbody></table>',
  '',
  '<table><thead><tr><th width="200">Rule</th><th>Description</th></tr></thead><tbody><tr><td><strong>Review</strong></td><td>One review at least.</td></tr></tbody></table>',
  '',
].join('\n');

const repository = (): RepositoryFiles =>
  new Map(
    Object.entries({
      '.gitbook.yaml': 'root: ./\nstructure:\n  readme: README.md\n  summary: SUMMARY.md\n',
      'README.md': '# Home\n\nWelcome.\n',
      'SUMMARY.md': '# Table of contents\n\n* [Home](README.md)\n* [Blocks](guide/blocks.md)\n',
      'guide/blocks.md': page,
      '.gitbook/assets/menu_dark.svg': svg('black'),
      '.gitbook/assets/menu_light.svg': svg('white'),
      '.gitbook/assets/cover (1).svg': svg('red'),
    }).map(([path, text]) => [path, encoder.encode(text)]),
  );

function leavesOf(nodes: Json[] = []): string[] {
  return nodes.flatMap((n) => (n.object === 'text' ? n.leaves.map((l: Json) => l.text as string) : [...leavesOf(n.nodes), ...(n.fragments ?? []).flatMap((f: Json) => leavesOf(f.nodes))]));
}

describe('Git Sync: GitBook HTML both ways', () => {
  it('reads a page of GitBook HTML into valid Documents with no raw syntax, writes it back byte for byte, and an edit changes its line only', () => {
    const files = repository();
    const read = readRepository(files);
    expect(read.warnings).toEqual([]);
    for (const p of read.content.pages) {
      expect(gitbookDocumentErrors(p.document)).toBeUndefined();
      expect(leavesOf(p.document!.nodes as Json[]).filter((t) => /\{%|<\/?[a-z]/i.test(t))).toEqual([]);
    }
    const blocks = read.content.pages.find((p) => p.title === 'Blocks')!;
    const home = read.content.pages.find((p) => p.title === 'Home')!;
    const file = (name: string) => read.content.files.find((f) => f.name === name)!.id;
    const nodes = blocks.document!.nodes as Json[];
    expect(nodes.map((b) => b.type)).toEqual(['paragraph', 'columns', 'table', 'table']);
    expect(nodes[0].nodes[1].data).toEqual({ ref: { kind: 'file', file: file('menu_light.svg') }, refDark: { kind: 'file', file: file('menu_dark.svg') }, alt: 'The Options menu icon' });
    const cards = nodes[2].data;
    const [record] = Object.values(cards.records as Record<string, Json>);
    expect(record.values[cards.view.targetDefinition]).toEqual({ kind: 'page', page: home.id });
    expect(record.values[cards.view.coverDefinition]).toEqual({ kind: 'file', file: file('cover (1).svg') });

    const written = writeRepository(read.content, read.fileBytes, { structure: read.structure, previousPaths: read.paths });
    expect([...written.files.keys()].sort()).toEqual([...files.keys()].sort());
    for (const [path, bytes] of files) expect(decoder.decode(written.files.get(path)!), path).toBe(decoder.decode(bytes));

    // One cell edited: only the grid table's line changes.
    const grid = nodes[3];
    const description = grid.fragments.find((f: Json) => f.fragment === Object.values(grid.data.records as Record<string, Json>)[0].values.col1);
    description.nodes[0].nodes[0].leaves[0].text = 'Two reviews.';
    const edited = decoder.decode(writeRepository(read.content, read.fileBytes, { structure: read.structure, previousPaths: read.paths }).files.get('guide/blocks.md')!).split('\n');
    const before = page.split('\n');
    expect(edited).toHaveLength(before.length);
    const changed = before.flatMap((line, i) => (line === edited[i] ? [] : [i]));
    expect(changed).toEqual([before.findIndex((l) => l.startsWith('<table><thead>'))]);
    expect(edited[changed[0]]).toContain('<td>Two reviews.</td>');
  });

  it('a page with `*` lists, asset paths with spaces, unquoted tag attributes and integration props, and SUMMARY.md link titles: read valid, kept, an edit changes its lines only', () => {
    const source = [
      '# Setup',
      '',
      '* Install',
      '* Configure ![](<../.gitbook/assets/my shot (1).png>)',
      '',
      '{% code title="app.ts" overflow=wrap lineNumbers=true fullWidth %}',
      '```ts',
      'start()',
      '```',
      '{% endcode %}',
      '',
      '{% @acme/chart count=3 enabled=true series=["a","b"] options={"stacked":true} title="Sales" %}',
      '',
      'Closing words.',
      '',
    ].join('\n');
    const summary = '# Table of contents\n\n* [Home](README.md "Start")\n\n## Get Started <a href="#getting-started" id="getting-started"></a>\n\n* [Setup](getting-started/setup.md "Set up")\n';
    const files: RepositoryFiles = new Map(
      Object.entries({ 'SUMMARY.md': summary, 'README.md': '# Home\n\nWelcome.\n', 'getting-started/setup.md': source, '.gitbook/assets/my shot (1).png': svg('blue') }).map(([path, text]) => [path, encoder.encode(text)]),
    );
    const read = readRepository(files);
    expect(read.warnings).toEqual([]);
    for (const p of read.content.pages.filter((p) => p.type === 'document')) {
      expect(gitbookDocumentErrors(p.document)).toBeUndefined();
      expect(leavesOf(p.document!.nodes as Json[]).filter((t) => /\{%|<\/?[a-z]/i.test(t))).toEqual([]);
    }
    const setup = read.content.pages.find((p) => p.title === 'Setup')!;
    expect(setup.linkTitle).toBe('Set up');
    expect(read.content.pages.find((p) => p.type === 'group')).toMatchObject({ title: 'Get Started', slug: 'getting-started' });
    const nodes = setup.document!.nodes as Json[];
    expect(nodes[1]).toMatchObject({ type: 'code', data: { overflow: 'wrap', lineNumbers: true, fullWidth: true } });
    expect(nodes[2].data.props).toEqual({ count: 3, enabled: true, series: ['a', 'b'], options: { stacked: true }, title: 'Sales' });

    /** The page's file as an export writes it over the branch's `source`, the page's blocks `blocks`. */
    const exported = (blocks: Json[]) => {
      const content = { ...read.content, pages: read.content.pages.map((p) => (p.id === setup.id ? { ...p, document: { ...p.document!, nodes: blocks } } : p)) } as typeof read.content;
      const written = writeRepository(content, read.fileBytes, { previousPaths: read.paths });
      expect(decoder.decode(written.files.get('SUMMARY.md')!)).toBe(summary);
      const path = 'getting-started/setup.md';
      return keepSourceText(source, decoder.decode(written.files.get(path)!), path, writtenReadRefs(content, written.paths, '')(path));
    };
    expect(exported(nodes)).toBe(source);
    // One prop changed: only the integration's line; a block added after the list: GitBook's bullets and path spelling.
    expect(exported(nodes.map((b, i) => (i === 2 ? { ...b, data: { ...b.data, props: { ...b.data.props, count: 4 } } } : b)))).toBe(source.replace('count=3', 'count=4'));
    const shot = read.content.files[0].id;
    const added = markdownToDocument(`See [the shot](${shot}).\n\n- one more`).nodes as Json[];
    expect(exported([...nodes.slice(0, 1), ...added, ...nodes.slice(1)])).toBe(source.replace('\n\n{% code', '\n\nSee [the shot](<../.gitbook/assets/my shot (1).png>).\n\n* one more\n\n{% code'));
  });
});
