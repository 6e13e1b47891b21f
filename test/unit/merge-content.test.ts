// The three-way merge of revision contents (server/content/merge.ts) on hand-made revisions: records
// changed on one side, pages merged field by field and block by block, and each refusal's wording.
import { describe, expect, it } from 'vitest';
import { Conflict } from '../../server/errors.js';
import { comparePages, mergeContent, pagesChangedOnBothSides } from '../../server/content/merge.js';
import type { Block } from '../../server/content/markdown-document.js';
import type { RevisionContent, StoredPage } from '../../server/content/revision-content.js';

const p = (key: string, text = key): Block => ({ object: 'block', type: 'paragraph', key, nodes: [{ object: 'text', leaves: [{ text }] }] }) as Block;
const page = (id: string, over: Partial<StoredPage> = {}, blocks: Block[] = [p('a'), p('b')]): StoredPage => ({
  id,
  parent: null,
  position: 'a0',
  type: 'document',
  title: id.toUpperCase(),
  slug: id,
  document: { object: 'document', nodes: blocks },
  hidden: false,
  noIndex: false,
  noRobotsIndex: false,
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
  ...over,
});
const content = (pages: StoredPage[], over: Partial<RevisionContent> = {}): RevisionContent => ({ pages, files: [], variables: {}, reusableContents: [], ...over });
const file = (id: string, name = id) => ({ id, name, contentType: 'text/plain', size: 1 });
const texts = (pg: StoredPage) => pg.document!.nodes.map((b) => (b.nodes?.[0] as { leaves: { text: string }[] }).leaves[0].text);

function refusal(base: RevisionContent, theirs: RevisionContent, ours: RevisionContent): string {
  try {
    mergeContent(base, theirs, ours);
  } catch (error) {
    expect(error).toBeInstanceOf(Conflict);
    return (error as Conflict).message;
  }
  throw new Error('merged');
}

describe('mergeContent', () => {
  const base = content([page('one'), page('two')], { files: [file('f1')], variables: { v: '1' } });

  it('takes pages, files and variables added, changed or deleted on one side', () => {
    const theirs = content([page('one', { title: 'One by space' }), page('two'), page('new-t')], { files: [file('f1'), file('f2')], variables: { v: '1', w: '2' } });
    const ours = content([page('one'), page('new-o')], { files: [], variables: { v: '3' } });
    const merged = mergeContent(base, theirs, ours);
    expect(merged.pages.map((x) => [x.id, x.title])).toEqual([['one', 'One by space'], ['new-t', 'NEW-T'], ['new-o', 'NEW-O']]);
    expect(merged.files.map((f) => f.id)).toEqual(['f2']);
    expect(merged.variables).toEqual({ v: '3', w: '2' });
    expect(mergeContent(base, base, base)).toEqual(base);
    const reusable = mergeContent(base, content(base.pages, { ...base, reusableContents: [{ id: 'r', title: 'R' }] }), base);
    expect(reusable.reusableContents).toEqual([{ id: 'r', title: 'R' }]);
  });

  it('merges a page changed on both sides field by field, keeping the later update time', () => {
    const theirs = content([page('one', { title: 'Title', updatedAt: '2026-01-03T00:00:00.000Z' }), page('two')]);
    const ours = content([page('one', { emoji: '1f600', hidden: true, updatedAt: '2026-01-02T00:00:00.000Z' }), page('two')]);
    const [one] = mergeContent(base, theirs, ours).pages;
    expect(one).toMatchObject({ title: 'Title', emoji: '1f600', hidden: true, updatedAt: '2026-01-03T00:00:00.000Z' });
    const [again] = mergeContent(base, content([page('one', { title: 'T', updatedAt: '2026-01-01T00:00:01.000Z' }), page('two')]), content([page('one', { slug: 's', updatedAt: '2026-01-05T00:00:00.000Z' }), page('two')])).pages;
    expect(again).toMatchObject({ title: 'T', slug: 's', updatedAt: '2026-01-05T00:00:00.000Z' });
  });

  it("merges a page's link title field by field like its title, and refuses it changed differently on both sides", () => {
    const titled = content([page('one', { linkTitle: 'Base' }), page('two')]);
    const theirs = content([page('one', { linkTitle: 'Base', title: 'Title' }, [p('a', 'A'), p('b')]), page('two')]);
    const ours = content([page('one', { linkTitle: 'Short' }, [p('a'), p('b', 'B')]), page('two')]);
    const [one] = mergeContent(titled, theirs, ours).pages;
    expect([one.title, one.linkTitle, texts(one)]).toEqual(['Title', 'Short', ['A', 'B']]);
    const removed = mergeContent(titled, theirs, content([page('one', { linkTitle: undefined, hidden: true }), page('two')])).pages[0];
    expect([removed.title, removed.linkTitle, removed.hidden]).toEqual(['Title', undefined, true]);
    expect(refusal(titled, content([page('one', { linkTitle: 'A' }), page('two')]), content([page('one', { linkTitle: 'B' }), page('two')]))).toBe(
      'The linkTitle of page "ONE" (one) was changed both in the change request and in the space',
    );
  });

  it("merges a link page's target by value, whichever side changed it, and refuses it changed differently on both", () => {
    const link = (over: Partial<StoredPage> = {}) => page('one', { type: 'link', target: { kind: 'url', url: 'https://a.example' }, document: undefined, ...over });
    const start = content([link(), page('two')]);
    // The change request (ours) retargets the link while the space (theirs) renames it, and the other way round.
    const retargeted = content([link({ target: { kind: 'anchor', page: 'two', anchor: 'usage' } }), page('two')]);
    const renamed = content([link({ title: 'Renamed' }), page('two')]);
    for (const [theirs, ours] of [[renamed, retargeted], [retargeted, renamed]]) {
      const [one] = mergeContent(start, theirs, ours).pages;
      expect([one.title, one.target]).toEqual(['Renamed', { kind: 'anchor', page: 'two', anchor: 'usage' }]);
    }
    // An equal target in a new object (as read again from storage) is no change.
    const copied = content([link({ target: { kind: 'url', url: 'https://a.example' }, hidden: true }), page('two')]);
    expect(mergeContent(start, renamed, copied).pages[0]).toMatchObject({ title: 'Renamed', hidden: true, target: { kind: 'url', url: 'https://a.example' } });
    const elsewhere = content([link({ target: { kind: 'page', page: 'two' } }), page('two')]);
    expect(refusal(start, retargeted, elsewhere)).toBe('The target of page "ONE" (one) was changed both in the change request and in the space');
  });

  it("merges a page's kept front matter (Git Sync's) field by field, whichever side changed it, and refuses it changed differently on both", () => {
    const start = content([page('one', { frontMatter: 'layout: wide\n' }), page('two')]);
    const imported = content([page('one', { frontMatter: 'layout: wide\ntags: [api]\n' }), page('two')]);
    const renamed = content([page('one', { frontMatter: 'layout: wide\n', title: 'Renamed' }), page('two')]);
    for (const [theirs, ours] of [[renamed, imported], [imported, renamed]]) {
      const [one] = mergeContent(start, theirs, ours).pages;
      expect([one.title, one.frontMatter]).toEqual(['Renamed', 'layout: wide\ntags: [api]\n']);
    }
    const dropped = content([page('one', { frontMatter: undefined, hidden: true }), page('two')]);
    expect(mergeContent(start, renamed, dropped).pages[0]).toMatchObject({ title: 'Renamed', hidden: true });
    expect(mergeContent(start, renamed, dropped).pages[0].frontMatter).toBeUndefined();
    expect(refusal(start, imported, content([page('one', { frontMatter: 'cover: a.png\n' }), page('two')]))).toBe(
      'The frontMatter of page "ONE" (one) was changed both in the change request and in the space',
    );
  });

  it('merges the content of a page block by block, and takes it whole from the only side that changed it', () => {
    const theirs = content([page('one', { title: 'T' }, [p('a', 'A'), p('b')]), page('two')]);
    const ours = content([page('one', { hidden: true }, [p('a'), p('b', 'B')]), page('two')]);
    expect(texts(mergeContent(base, theirs, ours).pages[0])).toEqual(['A', 'B']);
    const onlyOurs = content([page('one', { hidden: true }, [p('a'), p('b', 'B'), p('c')]), page('two')]);
    const merged = mergeContent(base, content([page('one', { title: 'T' }), page('two')]), onlyOurs).pages[0];
    expect([merged.title, merged.hidden, texts(merged)]).toEqual(['T', true, ['a', 'B', 'c']]);
    const onlyTheirs = mergeContent(base, content([page('one', { title: 'T' }, [p('z')]), page('two')]), content([page('one', { hidden: true }), page('two')])).pages[0];
    expect(texts(onlyTheirs)).toEqual(['z']);
  });

  it('takes document data from the side that changed it, and refuses it changed on both', () => {
    const withData = (data: Record<string, unknown>, blocks: Block[]) => ({ document: { object: 'document' as const, data, nodes: blocks } });
    const theirs = content([page('one', withData({ schemaVersion: 2 }, [p('a', 'A'), p('b')])), page('two')]);
    const ours = content([page('one', {}, [p('a'), p('b', 'B')]), page('two')]);
    expect(mergeContent(base, theirs, ours).pages[0].document!.data).toEqual({ schemaVersion: 2 });
    const both = content([page('one', withData({ schemaVersion: 3 }, [p('a'), p('b', 'B')])), page('two')]);
    expect(refusal(base, theirs, both)).toBe('The document data of page "ONE" (one) was changed both in the change request and in the space');
  });

  it('refuses a field changed differently on both sides, naming it', () => {
    expect(refusal(base, content([page('one', { title: 'A' }), page('two')]), content([page('one', { title: 'B' }), page('two')]))).toBe(
      'The title of page "B" (one) was changed both in the change request and in the space',
    );
  });

  it('refuses a page deleted on one side and changed on the other, and one created on both', () => {
    const message = 'page "ONE" (one) was deleted on one side (change request or space) and changed on the other';
    expect(refusal(base, content([page('two')]), content([page('one', { title: 'ONE', hidden: true }), page('two')]))).toBe(message);
    expect(refusal(base, content([page('one', { hidden: true }), page('two')]), content([page('two')]))).toBe(message);
    expect(refusal(base, content([...base.pages, page('n', { title: 'N1' })]), content([...base.pages, page('n', { title: 'N2' })]))).toBe(
      'page "N2" (n) was created on both sides with different content',
    );
  });

  it('refuses pages left without their parent', () => {
    const theirs = content([page('two')]);
    const ours = content([page('one'), page('two'), page('child', { parent: 'one' })]);
    expect(refusal(base, theirs, ours)).toBe('Pages whose parent page was deleted on the other side: child');
    const two = content([page('one'), page('two'), page('c1', { parent: 'one' }), page('c2', { parent: 'one' })]);
    expect(refusal(base, theirs, two)).toBe('Pages whose parent page was deleted on the other side: c1, c2');
  });

  it('merges sides that share their unchanged page objects with the base, as revisions read from the cache do', () => {
    const shared = Array.from({ length: 300 }, (_, i) => page(`p${i}`, i >= 200 ? { parent: 'p199' } : {}));
    const start = content(shared);
    // Theirs edits p10 and deletes p50; ours edits p20, adds a page after p100 and moves p250 to the top level.
    const theirs = content(shared.map((pg) => (pg.id === 'p10' ? page('p10', { title: 'Theirs' }) : pg)).filter((pg) => pg.id !== 'p50'));
    const added = page('new', { parent: 'p100' });
    const oursPages = shared.flatMap((pg) => (pg.id === 'p20' ? [page('p20', { title: 'Ours' })] : pg.id === 'p100' ? [pg, added] : pg.id === 'p250' ? [page('p250', { parent: null })] : [pg]));
    const merged = mergeContent(start, theirs, content(oursPages)).pages;
    expect(merged.map((pg) => pg.id)).toEqual([...shared.map((pg) => pg.id).filter((id) => id !== 'p50'), 'new']);
    const byIdMerged = new Map(merged.map((pg) => [pg.id, pg]));
    expect([byIdMerged.get('p10')!.title, byIdMerged.get('p20')!.title, byIdMerged.get('p250')!.parent, byIdMerged.get('new')!.parent]).toEqual(['Theirs', 'Ours', null, 'p100']);
    // The pages no side changed are the base's very objects.
    expect(merged.filter((pg) => shared.includes(pg)).length).toBe(296);
    // A page put under one the other side deleted is refused, the shared pages around it notwithstanding.
    const under50 = shared.flatMap((pg) => (pg.id === 'p49' ? [pg, page('child', { parent: 'p50' })] : [pg]));
    expect(refusal(start, theirs, content(under50))).toBe('Pages whose parent page was deleted on the other side: child');
  });

  it("tells by Document hashes which side a page's content comes from, and which pages need their Documents", () => {
    const hashed = (id: string, hash: string, over: Partial<StoredPage> = {}) => page(id, { document: undefined, documentHash: hash, ...over });
    const ids = ['same', 'theirs', 'ours', 'alike', 'both', 'one-side'];
    const start = content(ids.map((id) => hashed(id, 'h0')));
    const theirs = content([
      hashed('same', 'h0', { title: 'T' }), // both changed fields only
      hashed('theirs', 'h1'), // only theirs changed the content
      hashed('ours', 'h0', { title: 'T' }), // only ours changed the content
      hashed('alike', 'h1', { title: 'T' }), // both made the same content
      hashed('both', 'h1', { title: 'T' }), // both changed the content differently
      start.pages[5],
    ]);
    const ours = content([
      hashed('same', 'h0', { hidden: true }),
      hashed('theirs', 'h0', { hidden: true }),
      hashed('ours', 'h2', { hidden: true }),
      hashed('alike', 'h1', { hidden: true }),
      hashed('both', 'h2', { hidden: true }),
      hashed('one-side', 'h2'),
    ]);
    expect([...pagesChangedOnBothSides(comparePages(start, theirs, ours))]).toEqual(['both']);
    // Without the page whose content both changed (merged block by block, so it needs its Documents):
    const without = (c: RevisionContent) => content(c.pages.filter((pg) => pg.id !== 'both'));
    const merged = mergeContent(without(start), without(theirs), without(ours)).pages;
    expect(merged.map((pg) => [pg.id, pg.documentHash, pg.title, pg.hidden])).toEqual([
      ['same', 'h0', 'T', true],
      ['theirs', 'h1', 'THEIRS', true],
      ['ours', 'h2', 'T', true],
      ['alike', 'h1', 'T', true],
      ['one-side', 'h2', 'ONE-SIDE', false],
    ]);
    expect(merged.every((pg) => pg.document === undefined)).toBe(true);
  });

  it('lists the pages left without their parent in the order of the base', () => {
    // Theirs deletes `gone` and retitles p9; ours moves p9 and p3 under `gone`.
    const start = content([page('gone'), ...Array.from({ length: 10 }, (_, i) => page(`p${i}`))]);
    const theirs = content(start.pages.filter((pg) => pg.id !== 'gone').map((pg) => (pg.id === 'p9' ? page('p9', { title: 'Nine' }) : pg)));
    const ours = content(start.pages.map((pg) => (pg.id === 'p3' || pg.id === 'p9' ? page(pg.id, { parent: 'gone' }) : pg)));
    expect(refusal(start, theirs, ours)).toBe('Pages whose parent page was deleted on the other side: p3, p9');
  });

  it('compares nested records by value whatever their key order, arrays by order, null apart from absent', () => {
    const start = content([], { variables: { v: { a: 1, b: [1, 2], c: { d: 'x', e: null } } as never, w: '1' } });
    const reordered = content([], { variables: { v: { c: { e: null, d: 'x' }, b: [1, 2], a: 1 } as never, w: '1' } });
    const oursChange = content([], { variables: { v: { a: 2, b: [1, 2], c: { d: 'x', e: null } } as never, w: '1' } });
    expect(mergeContent(start, reordered, oursChange).variables.v).toEqual({ a: 2, b: [1, 2], c: { d: 'x', e: null } });
    const swapped = content([], { variables: { v: { a: 1, b: [2, 1], c: { d: 'x', e: null } } as never, w: '1' } });
    expect(refusal(start, swapped, oursChange)).toBe('Files, variables or reusable contents changed on both sides: v');
    const absent = content([], { variables: { v: { a: 1, b: [1, 2], c: { d: 'x' } } as never, w: '1' } });
    expect(refusal(start, absent, oursChange)).toBe('Files, variables or reusable contents changed on both sides: v');
    const undefinedKey = content([], { variables: { v: { a: 1, b: [1, 2], c: { d: 'x', e: null }, f: undefined } as never, w: '1' } });
    expect(mergeContent(start, undefinedKey, oursChange).variables.v).toEqual({ a: 2, b: [1, 2], c: { d: 'x', e: null } });
    const stringVsNumber = content([], { variables: { v: { a: '1', b: [1, 2], c: { d: 'x', e: null } } as never, w: '1' } });
    expect(refusal(start, stringVsNumber, oursChange)).toBe('Files, variables or reusable contents changed on both sides: v');
  });

  it('refuses files, variables and reusable contents changed on both sides, listing them', () => {
    const theirs = content(base.pages, { files: [file('f1', 'a.txt')], variables: { v: '2' }, reusableContents: [{ id: 'r', title: 'R1' }] });
    const ours = content(base.pages, { files: [file('f1', 'b.txt')], variables: { v: '3' }, reusableContents: [{ id: 'r', title: 'R2' }] });
    expect(refusal(base, theirs, ours)).toBe('Files, variables or reusable contents changed on both sides: f1, v, r');
  });

  it('takes the Markdown and block keys of a page stored before Documents from the side that changed it', () => {
    const legacy = (markdown: string, over: Partial<StoredPage> = {}) => page('one', { document: undefined, markdown, ...over });
    const start = content([legacy('First.\n\nSecond.'), page('two')]);
    const theirs = content([legacy('First.\n\nSecond.', { title: 'T' }), page('two')]);
    const ours = content([legacy('First, edited.\n\nSecond.', { hidden: true }), page('two')]);
    const [merged] = mergeContent(start, theirs, ours).pages;
    expect([merged.title, merged.hidden, merged.markdown, merged.document]).toEqual(['T', true, 'First, edited.\n\nSecond.', undefined]);
  });

  it('compares records whatever the order of their keys', () => {
    const reordered = { size: 1, contentType: 'text/plain', name: 'f1', id: 'f1' };
    const theirs = content(base.pages, { files: [reordered], variables: { v: '1' } });
    const ours = content(base.pages, { files: [file('f1', 'renamed')], variables: { v: '1' } });
    expect(mergeContent(base, theirs, ours).files).toEqual([file('f1', 'renamed')]);
    const withUndefined = content(base.pages, { files: [{ ...file('f1'), dimensions: undefined }], variables: { v: '1' } });
    expect(mergeContent(base, withUndefined, ours).files).toEqual([file('f1', 'renamed')]);
  });
});

describe('mergeContent: the tags file, redirects, legacy pages and the records compared', () => {
  const start = content([page('one'), page('two')], { tagsFile: 'tags: [a]\n', redirects: { old: 'one' } });
  const withTags = (tagsFile: string | undefined, over: Partial<RevisionContent> = {}) => content(start.pages, { redirects: { old: 'one' }, ...(tagsFile !== undefined && { tagsFile }), ...over });

  it('takes the tags file from the side that changed it, keeps it when neither did, and refuses it changed on both', () => {
    expect(mergeContent(start, withTags('tags: [b]\n'), start).tagsFile).toBe('tags: [b]\n');
    expect(mergeContent(start, start, withTags('tags: [c]\n')).tagsFile).toBe('tags: [c]\n');
    expect(mergeContent(start, withTags('tags: [d]\n'), withTags('tags: [d]\n')).tagsFile).toBe('tags: [d]\n');
    expect(mergeContent(start, start, start).tagsFile).toBe('tags: [a]\n');
    // Deleted on one side: the merge has none (and no `tagsFile` key).
    expect('tagsFile' in mergeContent(start, withTags(undefined), start)).toBe(false);
    expect('tagsFile' in mergeContent(start, start, withTags(undefined))).toBe(false);
    // A space that never had one gets the change request's.
    const none = content(start.pages);
    expect(mergeContent(none, none, withTags('tags: [n]\n')).tagsFile).toBe('tags: [n]\n');
    expect('tagsFile' in mergeContent(none, none, none)).toBe(false);
    expect(refusal(start, withTags('tags: [b]\n'), withTags('tags: [c]\n'))).toBe('Files, variables or reusable contents changed on both sides: .gitbook/tags.yaml');
    expect(refusal(start, withTags('tags: [b]\n'), withTags(undefined))).toBe('Files, variables or reusable contents changed on both sides: .gitbook/tags.yaml');
  });

  it('merges redirects entry by entry, and leaves none out when none is left', () => {
    const theirs = withTags('tags: [a]\n', { redirects: { old: 'one', t: 'two' } });
    const ours = withTags('tags: [a]\n', { redirects: { old: 'one', o: 'one' } });
    expect(mergeContent(start, theirs, ours).redirects).toEqual({ old: 'one', t: 'two', o: 'one' });
    const emptied = withTags('tags: [a]\n', { redirects: {} });
    const merged = mergeContent(start, emptied, start);
    expect('redirects' in merged).toBe(false);
    expect(refusal(start, withTags('tags: [a]\n', { redirects: { old: 'two' } }), withTags('tags: [a]\n', { redirects: {} }))).toBe(
      'Files, variables or reusable contents changed on both sides: old',
    );
  });

  it("takes a legacy page's Markdown and its block keys whole from the only side that changed them", () => {
    const legacy = (markdown: string, keys: string[], over: Partial<StoredPage> = {}): StoredPage => {
      const { document: _document, ...rest } = page('one', { markdown, keys, ...over });
      return rest;
    };
    const base = content([legacy('First.\n\nSecond.', ['k1', 'k2']), page('two')]);
    const ourPage = legacy('First, edited.\n\nSecond.', ['k1', 'k2'], { hidden: true });
    const [merged] = mergeContent(base, content([legacy('First.\n\nSecond.', ['k1', 'k2'], { title: 'T' }), page('two')]), content([ourPage, page('two')])).pages;
    // Exactly theirs' fields with ours' content: no Document made of it, no stray content field.
    expect(merged).toStrictEqual({ ...ourPage, title: 'T' });
    const theirPage = legacy('First.\n\nSecond, by the space.\n\nThird.', ['k1', 'k2', 'k3'], { title: 'T' });
    const [fromTheirs] = mergeContent(base, content([theirPage, page('two')]), content([legacy('First.\n\nSecond.', ['k1', 'k2'], { hidden: true }), page('two')])).pages;
    expect(fromTheirs).toStrictEqual({ ...theirPage, hidden: true });
  });

  it("takes a page's content with its Document hash from the side that changed it", () => {
    const hashed = (blocks: Block[], hash: string, over: Partial<StoredPage> = {}) => page('one', { documentHash: hash, ...over }, blocks);
    const base = content([page('one'), page('two')]);
    const ours = hashed([p('a'), p('b', 'B')], 'h2', { hidden: true });
    const [merged] = mergeContent(base, content([page('one', { title: 'T' }), page('two')]), content([ours, page('two')])).pages;
    expect(merged).toStrictEqual({ ...ours, title: 'T' });
  });

  it('takes document data from ours when only ours changed it', () => {
    const withData = (data: Record<string, unknown>, blocks: Block[], over: Partial<StoredPage> = {}) => page('one', { document: { object: 'document', data, nodes: blocks }, ...over });
    const theirs = content([withData({ v: 1 }, [p('a', 'A'), p('b')]), page('two')]);
    const ours = content([withData({ v: 2 }, [p('a'), p('b', 'B')]), page('two')]);
    const start = content([withData({ v: 1 }, [p('a'), p('b')]), page('two')]);
    const [merged] = mergeContent(start, theirs, ours).pages;
    expect([merged.document!.data, texts(merged)]).toEqual([{ v: 2 }, ['A', 'B']]);
  });

  it('names the page in a conflict of its blocks', () => {
    const base = content([page('one'), page('two')]);
    expect(refusal(base, content([page('one', { title: 'T' }, [p('a', 'space'), p('b')]), page('two')]), content([page('one', {}, [p('a', 'change request'), p('b')]), page('two')]))).toBe(
      'Block a of page "ONE" (one) (at nodes[0]) was changed both in the change request and in the space',
    );
  });

  it('compares records with fields set to undefined as records without them, at any depth', () => {
    // The base's file carries an undefined field: theirs left the file alone, ours renamed it.
    const base = content([], { files: [{ ...file('f1'), dimensions: undefined }] });
    expect(mergeContent(base, content([], { files: [file('f1')] }), content([], { files: [file('f1', 'renamed')] })).files).toEqual([file('f1', 'renamed')]);
    const nested = (c: Record<string, unknown>) => content([], { variables: { v: { c } as never } });
    expect(mergeContent(nested({ d: 'x' }), nested({ d: 'x', g: undefined }), nested({ d: 'y' })).variables.v).toEqual({ c: { d: 'y' } });
  });

  it('tells a list from a record and compares lists element by element', () => {
    const v = (c: unknown) => content([], { variables: { v: { c } as never } });
    // Theirs made the empty list an empty record, ours a list with an element: both changed it.
    expect(refusal(v([]), v({}), v(['x']))).toBe('Files, variables or reusable contents changed on both sides: v');
    // [1, 2] and [12] are different lists.
    expect(refusal(v([1, 2]), v([12]), v([1, 2, 3]))).toBe('Files, variables or reusable contents changed on both sides: v');
  });

  it('compares a value of null with a record without failing', () => {
    const v = (c: unknown) => content([], { variables: { v: c as never } });
    expect(mergeContent(v(null), v({ a: 1 }), v(null)).variables.v).toEqual({ a: 1 });
    expect(mergeContent(v({ a: 1 }), v({ a: 1 }), v(null)).variables.v).toBe(null);
  });
});

describe('comparePages and pagesChangedOnBothSides', () => {
  const start = content([page('one'), page('two'), page('three'), page('four')]);

  it('leaves out of a side the pages it deleted', () => {
    const compared = comparePages(start, content([page('one', { title: 'T' }), page('three'), page('four')]), start);
    expect(compared.theirs.has('two')).toBe(false);
    expect(compared.ours.get('two')).toBe(start.pages[1]);
    expect(compared.theirs.get('one')!.title).toBe('T');
  });

  it('needs the Documents only of pages both sides changed, whether or not they carry hashes', () => {
    const theirs = content([page('one', { title: 'T' }), page('three', { title: 'T' }), page('four', { title: 'T' }, [p('x')]), page('new', { title: 'N1' })]);
    const ours = content([page('one'), page('two', { title: 'O' }), page('four', { hidden: true }, [p('y')]), page('new', { title: 'N2' })]);
    // one: theirs only; two: deleted by theirs, changed by ours; three: deleted by ours, changed by theirs;
    // four: both changed its content; new: made on both sides differently.
    expect([...pagesChangedOnBothSides(comparePages(start, theirs, ours))].sort()).toEqual(['four', 'new', 'three', 'two']);
    // Changed on one side only (no hashes to tell them by): none.
    expect([...pagesChangedOnBothSides(comparePages(start, content([page('one', { title: 'T' }), page('two'), page('three'), page('four')]), start))]).toEqual([]);
    expect([...pagesChangedOnBothSides(comparePages(start, start, content([page('one'), page('two', { hidden: true }), page('three'), page('four')])))]).toEqual([]);
  });
});
