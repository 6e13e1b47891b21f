// Applying a batch of content changes to a revision (server/content/apply-changes.ts) without a database:
// what each operation does to the pages and files, the refs of a batch, and each refusal's field.
import { describe, expect, it } from 'vitest';
import { applyChanges, guessContentType, revertBlocks, slugify } from '../../server/content/apply-changes.js';
import type { Block } from '../../server/content/markdown-document.js';
import { pageDocument } from '../../server/content/page-content.js';
import { emptyContent, type RevisionContent, type StoredPage } from '../../server/content/revision-content.js';
import { BadRequest, NotFound } from '../../server/errors.js';

type Changes = Parameters<typeof applyChanges>[1];
const now = new Date('2026-02-01T10:00:00.000Z');
const p = (key: string, text = key, nodes?: Block[]): Block =>
  ({ object: 'block', type: 'paragraph', key, nodes: nodes ?? [{ object: 'text', leaves: [{ text }] }] }) as Block;
const container = (key: string, children: Block[]): Block => ({ object: 'block', type: 'hint', key, data: { style: 'info' }, nodes: children }) as Block;

function page(id: string, over: Partial<StoredPage> = {}, blocks: Block[] = [p('a')]): StoredPage {
  return {
    id,
    parent: null,
    position: 'a0',
    type: 'document',
    title: id,
    slug: id,
    document: { object: 'document', nodes: blocks },
    hidden: false,
    noIndex: false,
    noRobotsIndex: false,
    createdAt: '2026-01-01T00:00:00.000Z',
    updatedAt: '2026-01-01T00:00:00.000Z',
    ...over,
  };
}
const content = (...pages: StoredPage[]): RevisionContent => ({ ...emptyContent(), pages });

async function apply(start: RevisionContent, changes: Changes, revisions: Record<string, RevisionContent> = {}, files = new Map()) {
  return applyChanges(start, changes, { now, revision: async (id) => (id ? revisions[id] : undefined), files }, 'base');
}
async function refusal(start: RevisionContent, changes: Changes, revisions: Record<string, RevisionContent> = {}): Promise<string> {
  try {
    await apply(start, changes, revisions);
  } catch (error) {
    expect([BadRequest, NotFound].some((kind) => error instanceof kind), String(error)).toBe(true);
    return (error as Error).message;
  }
  throw new Error('applied');
}
const texts = (pg: StoredPage) => pageDocument(pg).nodes.map((b) => (b.nodes?.[0] as { leaves?: { text: string }[] })?.leaves?.[0]?.text);

describe('slugs and content types', () => {
  it('slugifies titles: accents dropped, lower case, runs of other characters one dash, at most 100', () => {
    expect(slugify('Héllo, Wörld!')).toBe('hello-world');
    expect(slugify('  --API v2 -- ')).toBe('api-v2');
    expect(slugify('日本')).toBe('page');
    expect(slugify('a'.repeat(150))).toHaveLength(100);
  });

  it('guesses a content type from the extension, whatever its case', () => {
    expect([guessContentType('logo.PNG'), guessContentType('a.b.jpeg'), guessContentType('notes.md'), guessContentType('README'), guessContentType('x.exe')]).toEqual([
      'image/png',
      'image/jpeg',
      'text/markdown',
      'application/octet-stream',
      'application/octet-stream',
    ]);
  });
});

describe('insert_page', () => {
  it('titles a page by its first heading, else Untitled, and places it last unless told', async () => {
    const start = content(page('p1', { position: 'a0' }), page('p2', { position: 'a1' }));
    const { content: next, results } = await apply(start, [
      { operation: 'insert_page', document: { markdown: 'Intro\n\n## Getting started ##\n\ntext' } },
      { operation: 'insert_page', document: { markdown: 'no heading' } },
      { operation: 'insert_page', title: 'First', slug: '', at: 0, document: { markdown: '# Ignored' }, hidden: true, emoji: '1f600' },
    ] as Changes);
    const [a, b, c] = next.pages.slice(2);
    expect([a.title, a.slug, b.title, b.slug, c.title, c.slug]).toEqual(['Getting started', 'getting-started', 'Untitled', 'untitled', 'First', 'first']);
    expect([a.hidden, c.hidden, c.emoji, c.noIndex, c.noRobotsIndex]).toEqual([false, true, '1f600', false, false]);
    expect(a.position > 'a1' && b.position > a.position && c.position < 'a0').toBe(true);
    expect([a.createdAt, a.updatedAt, a.parent, a.type]).toEqual(['2026-02-01T10:00:00.000Z', '2026-02-01T10:00:00.000Z', null, 'document']);
    expect(results.map((r) => r.object)).toEqual(['created_page', 'created_page', 'created_page']);
  });

  it('titles a page by the first heading of a document', async () => {
    const heading = { object: 'block', type: 'heading-2', nodes: [{ object: 'text', leaves: [{ text: 'From ' }, { text: 'doc' }] }] };
    const { content: next } = await apply(content(), [
      { operation: 'insert_page', document: { document: { object: 'document', nodes: [p('x'), heading] } } },
      { operation: 'insert_page', document: { document: { object: 'document', nodes: [{ ...heading, nodes: [{ object: 'text', leaves: [{ text: '  ' }] }] }] } } },
    ] as Changes);
    expect(next.pages.map((x) => x.title)).toEqual(['From doc', 'Untitled']);
  });

  it('puts a page into a parent named by id or by a ref of the batch, and refuses a ref used twice', async () => {
    const { content: next, results } = await apply(content(page('root')), [
      { operation: 'insert_page', title: 'A', ref: 'a', into: 'root', document: { markdown: '' } },
      { operation: 'insert_page', title: 'B', into: 'a', document: { markdown: '' } },
    ] as Changes);
    const [, a, b] = next.pages;
    expect([a.parent, b.parent]).toEqual(['root', a.id]);
    expect(results[0]).toEqual({ object: 'created_page', ref: 'a', page: a.id });
    expect(results[1]).toEqual({ object: 'created_page', page: b.id });
    expect(
      await refusal(content(), [
        { operation: 'insert_page', ref: 'a', document: { markdown: '' } },
        { operation: 'insert_page', ref: 'a', document: { markdown: '' } },
      ] as Changes),
    ).toBe('body.changes[1].ref: a is already used in this batch');
    expect(await refusal(content(), [{ operation: 'insert_page', into: 'nope', document: { markdown: '' } }] as Changes)).toBe(
      'body.changes[0].into: page nope not found in the change request',
    );
  });

  it('checks the condition of a page, naming the change', async () => {
    expect(await refusal(content(), [{ operation: 'insert_page', condition: 'visitor.claims.a >', document: { markdown: '' } }] as Changes)).toMatch(
      /^Invalid request: body.changes\[0\].condition: at character/,
    );
  });
});

describe('update_page', () => {
  it('changes the fields given and no others, and marks the time', async () => {
    const start = content(page('p', { title: 'Old', slug: 'old', emoji: 'e', icon: 'i', description: 'd', condition: 'visitor.claims.a' }));
    const { content: next, results } = await apply(start, [{ operation: 'update_page', page: 'p', title: 'New title', slug: '', noIndex: true, emoji: '', icon: 'star', condition: '' }] as Changes);
    const [pg] = next.pages;
    expect(pg).toMatchObject({ title: 'New title', slug: 'new-title', noIndex: true, hidden: false, icon: 'star', description: 'd', updatedAt: '2026-02-01T10:00:00.000Z' });
    expect([pg.emoji, pg.condition]).toEqual([undefined, undefined]);
    expect(results).toEqual([{ object: 'updated_page', page: 'p' }]);
    const { content: kept } = await apply(content(page('p', { slug: 'kept', description: 'd' })), [{ operation: 'update_page', page: 'p', title: 'T', description: 'new' }] as Changes);
    expect([kept.pages[0].slug, kept.pages[0].description]).toEqual(['kept', 'new']);
  });

  it('sets a link title on insert and update, keeps it when not named, and removes it with ""', async () => {
    const { content: next } = await apply(content(page('p')), [
      { operation: 'insert_page', ref: 'n', title: 'Getting started with the API', linkTitle: 'Start', document: { markdown: 'Text.' } },
      { operation: 'update_page', page: 'p', linkTitle: 'Short' },
    ] as Changes);
    const [p, inserted] = next.pages;
    expect([p.linkTitle, inserted.title, inserted.linkTitle]).toEqual(['Short', 'Getting started with the API', 'Start']);
    const { content: kept } = await apply(next, [{ operation: 'update_page', page: 'p', title: 'Renamed' }] as Changes);
    expect([kept.pages[0].title, kept.pages[0].linkTitle]).toEqual(['Renamed', 'Short']);
    const { content: removed } = await apply(kept, [{ operation: 'update_page', page: 'p', linkTitle: '' }] as Changes);
    expect(removed.pages[0].linkTitle).toBeUndefined();
    expect(removed.pages[1].linkTitle).toBe('Start');
  });

  it('replaces the content when a document is given', async () => {
    const { content: next } = await apply(content(page('p')), [{ operation: 'update_page', page: 'p', document: { markdown: 'New text' } }] as Changes);
    expect(texts(next.pages[0])).toEqual(['New text']);
  });

  it('moves a page into another, to the root, or among its siblings, never into itself or a subpage', async () => {
    const start = () => content(page('a', { position: 'a0' }), page('b', { position: 'a1' }), page('c', { parent: 'a', position: 'a0' }));
    const moved = (await apply(start(), [{ operation: 'update_page', page: 'b', into: 'a', at: 0 }] as Changes)).content.pages.find((x) => x.id === 'b')!;
    expect(moved.parent).toBe('a');
    expect(moved.position < 'a0').toBe(true);
    const toRoot = (await apply(start(), [{ operation: 'update_page', page: 'c', into: null }] as Changes)).content.pages.find((x) => x.id === 'c')!;
    expect(toRoot.parent).toBeNull();
    expect(toRoot.position > 'a1').toBe(true);
    const first = (await apply(start(), [{ operation: 'update_page', page: 'b', at: 0 }] as Changes)).content.pages.find((x) => x.id === 'b')!;
    expect([first.parent, first.position < 'a0']).toEqual([null, true]);
    expect(await refusal(start(), [{ operation: 'update_page', page: 'a', into: 'c' }] as Changes)).toBe('body.changes[0].into: page c is the page itself or one of its subpages');
    expect(await refusal(start(), [{ operation: 'update_page', page: 'a', into: 'a' }] as Changes)).toBe('body.changes[0].into: page a is the page itself or one of its subpages');
    expect(await refusal(start(), [{ operation: 'update_page', page: 'zz' }] as Changes)).toBe('body.changes[0].page: page zz not found in the change request');
  });
});

describe('delete_page', () => {
  it('deletes a page with its subpages', async () => {
    const start = content(page('a'), page('b', { parent: 'a' }), page('c', { parent: 'b' }), page('d'));
    const { content: next, results } = await apply(start, [{ operation: 'delete_page', page: 'a' }] as Changes);
    expect(next.pages.map((x) => x.id)).toEqual(['d']);
    expect(results).toEqual([{ object: 'deleted_page', page: 'a' }]);
  });
});

describe('revert_page', () => {
  const old = content(page('a', { title: 'Old A' }, [p('x', 'old x'), p('y')]), page('gone', { parent: 'a' }));

  it('brings back a page as it was, under its parent when that is still there', async () => {
    const { content: next, results } = await apply(content(page('a', { title: 'New A' })), [{ operation: 'revert_page', page: 'gone' }, { operation: 'revert_page', page: 'a', revision: 'r1' }] as Changes, { base: old, r1: old });
    expect(next.pages.map((x) => [x.id, x.title, x.parent])).toEqual([['gone', 'gone', 'a'], ['a', 'Old A', null]]);
    expect(results).toEqual([{ object: 'created_page', page: 'gone' }, { object: 'updated_page', page: 'a' }]);
    const orphan = await apply(content(), [{ operation: 'revert_page', page: 'gone' }] as Changes, { base: old });
    expect(orphan.content.pages[0].parent).toBeNull();
  });

  it('deletes a page the revision did not have, and refuses what neither has', async () => {
    const { content: next, results } = await apply(content(page('a'), page('new'), page('sub', { parent: 'new' })), [{ operation: 'revert_page', page: 'new' }] as Changes, { base: old });
    expect(next.pages.map((x) => x.id)).toEqual(['a']);
    expect(results).toEqual([{ object: 'deleted_page', page: 'new' }]);
    expect(await refusal(content(), [{ operation: 'revert_page', page: 'zz' }] as Changes, { base: old })).toBe('body.changes[0].page: page zz not found in the change request or the revision');
    expect(await refusal(content(), [{ operation: 'revert_page', page: 'a', revision: 'r9' }] as Changes, { base: old })).toBe('body.changes[0].revision: revision r9 not found in this space');
  });

  it('reverts blocks of a page in both, and refuses blocks of a page only in one', async () => {
    const { content: next, results } = await apply(content(page('a', {}, [p('x', 'new x'), p('y'), p('z')])), [{ operation: 'revert_page', page: 'a', block: ['x', 'z'] }] as Changes, { base: old });
    expect(texts(next.pages[0])).toEqual(['old x', 'y']);
    expect(next.pages[0].updatedAt).toBe('2026-02-01T10:00:00.000Z');
    expect(results).toEqual([{ object: 'updated_page', page: 'a' }]);
    expect(await refusal(content(page('new')), [{ operation: 'revert_page', page: 'new', block: ['x'] }] as Changes, { base: old })).toBe(
      'body.changes[0].block: page new is not in both the change request and the revision; revert the whole page',
    );
  });
});

describe('insert_files', () => {
  it('stores each file with its bytes, type and dimensions, and lets documents of the batch name it by ref', async () => {
    const files = new Map([
      ['1/0', { sha256: 'png!-sha', size: 4, contentType: undefined, dimensions: { width: 2, height: 3 } }],
      ['1/1', { sha256: 'hello-sha', size: 5, contentType: 'text/x-custom' }],
    ]);
    const image = { object: 'block', type: 'images', nodes: [{ object: 'block', type: 'image', isVoid: true, data: { ref: { kind: 'file', file: 'logo' } } }] };
    const link = { object: 'block', type: 'paragraph', nodes: [{ object: 'inline', type: 'link', data: { ref: { kind: 'url', url: 'intro' } }, nodes: [{ object: 'text', leaves: [{ text: 'see' }] }] }] };
    const { content: next, insertedFiles, fileBytes } = await apply(
      content(),
      [
        { operation: 'insert_page', ref: 'intro', title: 'Intro', document: { document: { object: 'document', nodes: [image, link] } } },
        { operation: 'insert_files', files: [{ name: 'logo.png', ref: 'logo', url: 'https://x.example/logo.png' }, { name: 'notes.bin', contentType: 'text/x-custom', base64: 'aGVsbG8=' }] },
      ] as Changes,
      {},
      files,
    );
    expect(insertedFiles.map((f) => ({ ...f, id: f.id.slice(0, 4) }))).toEqual([
      { id: 'fil_', name: 'logo.png', contentType: 'image/png', size: 4, dimensions: { width: 2, height: 3 } },
      { id: 'fil_', name: 'notes.bin', contentType: 'text/x-custom', size: 5 },
    ]);
    expect(next.files).toEqual(insertedFiles);
    expect(fileBytes.map((f) => f.sha256)).toEqual(['png!-sha', 'hello-sha']);
    const [imageBlock, linkBlock] = pageDocument(next.pages[0]).nodes as unknown as { nodes: { data: { ref: unknown } }[] }[];
    expect(imageBlock.nodes[0].data.ref).toEqual({ kind: 'file', file: insertedFiles[0].id });
    expect(linkBlock.nodes[0].data.ref).toEqual({ kind: 'page', page: next.pages[0].id });
  });

  it('refuses a file ref used twice in the batch', async () => {
    const files = new Map([
      ['0/0', { sha256: 'a-sha', size: 1 }],
      ['0/1', { sha256: 'b-sha', size: 1 }],
    ]);
    await expect(
      apply(content(), [{ operation: 'insert_files', files: [{ name: 'a', ref: 'r', url: 'https://x.example/a' }, { name: 'b', ref: 'r', url: 'https://x.example/b' }] }] as Changes, {}, files),
    ).rejects.toThrow('body.changes[0].files[1].ref: r is already used in this batch');
  });
});

describe('revertBlocks', () => {
  const at = 'body.changes[0]';
  it('changes blocks back, removes those that did not exist, and puts back deleted ones after their earlier sibling', () => {
    const old = [p('a'), p('b', 'old b'), container('h', [p('h1'), p('h2')]), p('c')];
    const current = [p('a'), p('b', 'new b'), container('h', [p('h2')]), p('new')];
    const result = revertBlocks(current, old, ['b', 'new', 'c', 'h1'], at);
    expect(result.map((b) => b.key)).toEqual(['a', 'b', 'h', 'c']);
    expect((result[1].nodes![0] as { leaves: { text: string }[] }).leaves[0].text).toBe('old b');
    expect((result[2].nodes as Block[]).map((b) => b.key)).toEqual(['h1', 'h2']);
    // The input is not changed.
    expect(current.map((b) => b.key)).toEqual(['a', 'b', 'h', 'new']);
    expect(revertBlocks([p('z')], [p('a'), p('z')], ['a'], at).map((b) => b.key)).toEqual(['a', 'z']);
  });

  it('refuses a block found nowhere, and one whose parent block is gone', () => {
    expect(() => revertBlocks([p('a')], [p('a')], ['zz'], at)).toThrow('body.changes[0].block[0]: block zz not found in the page or in the revision');
    expect(() => revertBlocks([p('a')], [container('h', [p('h1')])], ['h1'], at)).toThrow(
      'body.changes[0].block[0]: block h1 was inside block h, which is no longer in the page; revert that block',
    );
  });
});

// Written against the survivors of the first mutation run of apply-changes.ts (bench/results/mutation.md).
describe('apply-changes edges', () => {
  it('knows the content type of each common extension', () => {
    const expected: Record<string, string> = {
      'a.png': 'image/png', 'a.jpg': 'image/jpeg', 'a.jpeg': 'image/jpeg', 'a.gif': 'image/gif', 'a.svg': 'image/svg+xml', 'a.webp': 'image/webp',
      'a.pdf': 'application/pdf', 'a.txt': 'text/plain', 'a.md': 'text/markdown', 'a.json': 'application/json', 'a.csv': 'text/csv', 'a.zip': 'application/zip',
    };
    for (const [name, type] of Object.entries(expected)) expect(guessContentType(name), name).toBe(type);
  });

  it('reads a Markdown heading only at the start of a line, without its marks and spaces', async () => {
    const titles = async (markdown: string) => (await apply(content(), [{ operation: 'insert_page', document: { markdown } }] as Changes)).content.pages[0].title;
    expect(await titles('Intro ## not a heading')).toBe('Untitled');
    expect(await titles('###   Spaced out   ###  ')).toBe('Spaced out');
    const heading = { object: 'block', type: 'heading-1', nodes: [{ object: 'text', leaves: [{ text: 'See ' }] }, { object: 'inline', type: 'link', data: { ref: { kind: 'url', url: 'https://x.example' } }, nodes: [{ object: 'text', leaves: [{ text: 'link' }] }] }] };
    const fromDoc = await apply(content(), [{ operation: 'insert_page', document: { document: { object: 'document', nodes: [heading] } } }] as Changes);
    expect(fromDoc.content.pages[0].title).toBe('See');
  });

  it('leaves what an update does not name as it was: title, position, emoji, icon, condition', async () => {
    const start = content(page('a', { position: 'a0', emoji: 'e', icon: 'i', condition: 'visitor.claims.x', title: 'A' }), page('b', { position: 'a1' }));
    const [a] = (await apply(start, [{ operation: 'update_page', page: 'a', hidden: true }] as Changes)).content.pages;
    expect([a.title, a.position, a.emoji, a.icon, a.condition, a.hidden]).toEqual(['A', 'a0', 'e', 'i', 'visitor.claims.x', true]);
  });

  it('moves a page among its own siblings counting them without it', async () => {
    const start = content(page('a', { position: 'a0' }), page('b', { position: 'a1' }), page('c', { position: 'a2' }));
    const { content: next } = await apply(start, [{ operation: 'update_page', page: 'a', at: 1 }] as Changes);
    const order = [...next.pages].sort((x, y) => (x.position < y.position ? -1 : 1)).map((x) => x.id);
    expect(order).toEqual(['b', 'a', 'c']);
  });

  it('gives results without a ref when the change had none, and files without refs never clash', async () => {
    const { results } = await apply(content(), [{ operation: 'insert_page', document: { markdown: '' } }] as Changes);
    expect(results[0]).toStrictEqual({ object: 'created_page', page: results[0].page });
    const files = new Map([
      ['0/0', { sha256: 'a-sha', size: 1 }],
      ['0/1', { sha256: 'b-sha', size: 1 }],
    ]);
    const both = await apply(content(), [{ operation: 'insert_files', files: [{ name: 'a.txt', url: 'https://x.example/a' }, { name: 'b.txt', url: 'https://x.example/b' }] }] as Changes, {}, files);
    expect(both.insertedFiles.map((f) => [f.name, f.contentType])).toEqual([['a.txt', 'text/plain'], ['b.txt', 'text/plain']]);
  });

  it('makes page, anchor and URL references to the refs of a batch point at what they name, and leaves others alone', async () => {
    const linkTo = (ref: Record<string, unknown>) => ({ object: 'block', type: 'paragraph', nodes: [{ object: 'inline', type: 'link', data: { ref }, nodes: [{ object: 'text', leaves: [{ text: 'x' }] }] }] });
    const refs = [
      { kind: 'page', page: 'intro' },
      { kind: 'anchor', page: 'intro', anchor: 'top' },
      { kind: 'url', url: 'logo' },
      { kind: 'url', url: 'https://elsewhere.example' },
      { kind: 'file', file: 'fil_existing' },
      { kind: 'page', page: 'pag_existing' },
    ];
    const files = new Map([['1/0', { sha256: 'png-sha', size: 3 }]]);
    const { content: next, insertedFiles } = await apply(
      content(),
      [
        { operation: 'insert_page', ref: 'intro', title: 'Intro', document: { document: { object: 'document', nodes: refs.map(linkTo) } } },
        { operation: 'insert_files', files: [{ name: 'logo.png', ref: 'logo', url: 'https://x.example/logo.png' }] },
      ] as Changes,
      {},
      files,
    );
    const pageId = next.pages[0].id;
    const got = (pageDocument(next.pages[0]).nodes as unknown as { nodes: { data: { ref: unknown } }[] }[]).map((b) => b.nodes[0].data.ref);
    expect(got).toEqual([
      { kind: 'page', page: pageId },
      { kind: 'anchor', page: pageId, anchor: 'top' },
      { kind: 'file', file: insertedFiles[0].id },
      { kind: 'url', url: 'https://elsewhere.example' },
      { kind: 'file', file: 'fil_existing' },
      { kind: 'page', page: 'pag_existing' },
    ]);
  });

  it('restores a page at the root when its old parent is gone, even with other pages there', async () => {
    const old = content(page('parent'), page('child', { parent: 'parent' }));
    const { content: next } = await apply(content(page('other')), [{ operation: 'revert_page', page: 'child' }] as Changes, { base: old });
    expect(next.pages.find((x) => x.id === 'child')!.parent).toBeNull();
  });

  it('puts a reverted block back after its nearest earlier sibling still in the page', () => {
    expect(revertBlocks([p('a'), p('c')], [p('a'), p('b'), p('c')], ['b'], 'body.changes[0]').map((b) => b.key)).toEqual(['a', 'b', 'c']);
    expect(revertBlocks([p('a')], [p('a'), p('x'), p('b')], ['b'], 'body.changes[0]').map((b) => b.key)).toEqual(['a', 'b']);
  });
});

describe('the fields a refusal names, and titles taken from the content', () => {
  const dupKeys = { document: { object: 'document', nodes: [p('k'), p('k')] } };

  it('names the document, the condition, the parent and the page of the change that fails', async () => {
    const start = content(page('p1'));
    expect(await refusal(start, [{ operation: 'insert_page', title: 'T', document: dupKeys }] as Changes)).toMatch(/^body\.changes\[0\]\.document\./);
    expect(await refusal(start, [{ operation: 'update_page', page: 'p1', title: 'T' }, { operation: 'update_page', page: 'p1', document: dupKeys }] as Changes)).toMatch(/^body\.changes\[1\]\.document\./);
    expect(await refusal(start, [{ operation: 'update_page', page: 'p1', condition: 'visitor.claims.' }] as Changes)).toContain('body.changes[0].condition');
    expect(await refusal(start, [{ operation: 'update_page', page: 'p1', into: 'nope' }] as Changes)).toBe('body.changes[0].into: page nope not found in the change request');
    expect(await refusal(start, [{ operation: 'delete_page', page: 'nope' }] as Changes)).toBe('body.changes[0].page: page nope not found in the change request');
  });

  it('gives new pages ids of their kind, and titles a page without title or heading Untitled', async () => {
    const { content: next } = await apply(content(), [
      { operation: 'insert_page' },
      { operation: 'insert_page', document: { document: { object: 'document', nodes: [p('a', 'no heading')] } } },
    ] as Changes);
    expect(next.pages.map((x) => [x.id.slice(0, 4), x.title, x.slug])).toEqual([
      ['pag_', 'Untitled', 'untitled'],
      ['pag_', 'Untitled', 'untitled'],
    ]);
  });

  it('titles a page inserted without a title by its leading H1 without marks, its slug made from it unless given', async () => {
    const { content: next } = await apply(content(), [
      { operation: 'insert_page', document: { markdown: '# **Bold** start\n\nText.' } },
      { operation: 'insert_page', slug: 'given', document: { markdown: '# **Bold** start\n\nText.' } },
      { operation: 'insert_page', document: { markdown: '# [Intro](https://example.com/x)\n\nText.' } },
    ] as Changes);
    expect(next.pages.map((x) => [x.title, x.slug, texts(x)])).toEqual([
      ['Bold start', 'bold-start', ['Text.']],
      ['Bold start', 'given', ['Text.']],
      // The slug is made from the title as read, not from the heading's Markdown.
      ['Intro', 'intro', ['Text.']],
    ]);
  });

  it('drops a leading H1 equal to the new title of an updated page', async () => {
    const { content: next } = await apply(content(page('p1')), [{ operation: 'update_page', page: 'p1', title: 'Renamed', document: { markdown: '# Renamed\n\nBody.' } }] as Changes);
    expect([next.pages[0].title, texts(next.pages[0])]).toEqual(['Renamed', ['Body.']]);
  });
});

describe('references of a batch', () => {
  const link = (ref: Record<string, unknown>, text = 'x') => ({ object: 'inline', type: 'link', data: { ref }, nodes: [{ object: 'text', leaves: [{ text }] }] });
  const refOfLink = (b: unknown) => ((b as { nodes: unknown[] }).nodes.find((n) => (n as { object: string }).object === 'inline') as { data: { ref: unknown } }).data.ref;

  it('rewrites a ref of the batch in a page updated in it, next to text and other inlines', async () => {
    const paragraph = { object: 'block', type: 'paragraph', key: 'k', nodes: [{ object: 'text', leaves: [{ text: 'see ' }] }, link({ kind: 'page', page: 'intro' })] };
    const { content: next } = await apply(content(page('p1')), [
      { operation: 'insert_page', ref: 'intro', title: 'Intro' },
      { operation: 'update_page', page: 'p1', document: { document: { object: 'document', nodes: [paragraph] } } },
    ] as Changes);
    const intro = next.pages.find((x) => x.title === 'Intro')!;
    const [block] = pageDocument(next.pages[0]).nodes;
    expect(refOfLink(block)).toEqual({ kind: 'page', page: intro.id });
    expect((block.nodes![0] as { leaves: { text: string }[] }).leaves[0].text).toBe('see ');
  });

  it('rewrites refs inside fragments (a table\'s cells), leaving the other cells as they were', async () => {
    const cellBlock = (key: string, ref?: Record<string, unknown>) => ({ object: 'block', type: 'paragraph', key, nodes: ref ? [link(ref)] : [{ object: 'text', leaves: [{ text: 'plain' }] }] });
    const table = {
      object: 'block',
      type: 'table',
      key: 'tbl',
      isVoid: true,
      data: {
        view: { type: 'grid', columns: ['c0', 'c1'] },
        definition: { c0: { id: 'c0', title: 'A', type: 'text' }, c1: { id: 'c1', title: 'B', type: 'text' } },
        records: { r0: { orderIndex: 'a0', values: { c0: 'r0-c0', c1: 'r0-c1' } } },
      },
      fragments: [
        { object: 'fragment', fragment: 'r0-c0', nodes: [cellBlock('f0')] },
        { object: 'fragment', fragment: 'r0-c1', nodes: [cellBlock('f1', { kind: 'page', page: 'intro' })] },
      ],
    };
    const { content: next } = await apply(content(), [
      { operation: 'insert_page', ref: 'intro', title: 'Intro' },
      { operation: 'insert_page', title: 'Table', document: { document: { object: 'document', nodes: [table] } } },
    ] as unknown as Changes);
    const [stored] = pageDocument(next.pages[1]).nodes;
    const [plain, linked] = stored.fragments!;
    expect([plain.fragment, (plain.nodes[0] as Block).key, texts({ document: { object: 'document', nodes: plain.nodes as Block[] } } as StoredPage)]).toEqual(['r0-c0', 'f0', ['plain']]);
    expect(refOfLink(linked.nodes[0])).toEqual({ kind: 'page', page: next.pages[0].id });
  });

  it('inserts, updates and deletes reusable contents, and lets pages and contents of the batch name each other by ref', async () => {
    const include = { object: 'block', type: 'reusable-content', key: 'inc', isVoid: true, data: { ref: { kind: 'reusable-content', reusableContent: 'shared' } } };
    const other = { object: 'block', type: 'reusable-content', key: 'inc2', isVoid: true, data: { ref: { kind: 'reusable-content', reusableContent: 'rsc_kept' } } };
    const start = { ...content(), reusableContents: [{ id: 'rsc_old', title: 'Old' }, { id: 'rsc_kept', title: 'Kept' }] };
    const { content: next, reusableResults } = await apply(start, [
      { operation: 'insert_reusable_content', ref: 'shared', title: 'Shared', document: { document: { object: 'document', nodes: [{ object: 'block', type: 'paragraph', key: 'r1', nodes: [link({ kind: 'page', page: 'intro' })] }] } } },
      { operation: 'insert_page', ref: 'intro', title: 'Intro', document: { document: { object: 'document', nodes: [include, other] } } },
      { operation: 'update_reusable_content', reusableContent: 'shared', title: 'Shared, renamed' },
      { operation: 'delete_reusable_content', reusableContent: 'rsc_old' },
    ] as Changes);
    const shared = next.reusableContents.find((r) => r.title === 'Shared, renamed')!;
    expect(reusableResults).toEqual([
      { object: 'created_reusable_content', ref: 'shared', reusableContent: shared.id },
      { object: 'updated_reusable_content', reusableContent: shared.id },
      { object: 'deleted_reusable_content', reusableContent: 'rsc_old' },
    ]);
    expect(next.reusableContents.map((r) => r.id)).toEqual(['rsc_kept', shared.id]);
    const [inc, inc2] = pageDocument(next.pages[0]).nodes as unknown as { data: { ref: unknown } }[];
    expect([inc.data.ref, inc2.data.ref]).toEqual([
      { kind: 'reusable-content', reusableContent: shared.id },
      { kind: 'reusable-content', reusableContent: 'rsc_kept' },
    ]);
    expect(refOfLink(shared.document!.nodes[0])).toEqual({ kind: 'page', page: next.pages[0].id });
  });

  it('has no reusable-content results for a batch without such changes', async () => {
    expect((await apply(content(page('p1')), [{ operation: 'update_page', page: 'p1', title: 'T' }] as Changes)).reusableResults).toEqual([]);
  });

  it('reads Markdown links against the pages as moved or renamed by the changes before', async () => {
    const start = content(page('p1', { slug: 'alpha', position: 'a0' }), page('p2', { slug: 'beta', position: 'a1' }), page('p3', { slug: 'gamma', position: 'a2' }));
    const { content: next } = await apply(start, [
      { operation: 'update_page', page: 'p2', document: { markdown: 'Before.' } },
      { operation: 'update_page', page: 'p1', slug: 'renamed' },
      { operation: 'update_page', page: 'p2', document: { markdown: '[A](renamed.md)' } },
      { operation: 'update_page', page: 'p3', into: 'p1' },
      { operation: 'update_page', page: 'p2', document: { markdown: '[A](renamed.md) [C](renamed/gamma.md)' } },
    ] as Changes);
    const refs = (pageDocument(next.pages.find((x) => x.id === 'p2')!).nodes[0].nodes as { object: string; data?: { ref: unknown } }[]).filter((n) => n.object === 'inline').map((n) => n.data!.ref);
    expect(refs).toEqual([
      { kind: 'page', page: 'p1' },
      { kind: 'page', page: 'p3' },
    ]);
  });
});

describe('revertBlocks, more', () => {
  it('puts a block back into its parent block when the parent has no children left', () => {
    const current = [{ object: 'block', type: 'hint', key: 'h', data: { style: 'info' } } as Block];
    const reverted = revertBlocks(current, [container('h', [p('x')])], ['x'], 'body.changes[0]');
    expect(reverted[0].nodes!.map((b) => (b as Block).key)).toEqual(['x']);
  });

  it('removes a block the revision did not have, also the first one', () => {
    expect(revertBlocks([p('new'), p('a')], [p('a')], ['new'], 'body.changes[0]').map((b) => b.key)).toEqual(['a']);
    expect(revertBlocks([container('h', [p('new'), p('a')])], [container('h', [p('a')])], ['new'], 'body.changes[0]')[0].nodes!.map((b) => (b as Block).key)).toEqual(['a']);
  });
});
