// The three-way merge of revision contents (server/content/merge.ts) on hand-made revisions: records
// changed on one side, pages merged field by field and block by block, and each refusal's wording.
import { describe, expect, it } from 'vitest';
import { Conflict } from '../../server/errors.js';
import { mergeContent } from '../../server/content/merge.js';
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
