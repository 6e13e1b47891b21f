// The block-level three-way merge of a page (server/content/merge-blocks.ts) on hand-made trees: what
// merges, where both sides' insertions go, and the conflict each refusal names (block, page and path).
import { describe, expect, it } from 'vitest';
import { Conflict } from '../../server/errors.js';
import { mergeBlockTree } from '../../server/content/merge-blocks.js';
import type { Block } from '../../server/content/markdown-document.js';

const place = { page: 'page "Guide" (pag_1)' };
const p = (key: string, text = key): Block => ({ object: 'block', type: 'paragraph', key, nodes: [{ object: 'text', leaves: [{ text }] }] }) as Block;
const item = (key: string, ...children: Block[]): Block => ({ object: 'block', type: 'list-item', key, nodes: children }) as Block;
const list = (key: string, items: Block[], data: Record<string, unknown> = {}): Block => ({ object: 'block', type: 'list-unordered', key, data, nodes: items }) as Block;
const keys = (blocks: Block[]) => blocks.map((b) => b.key);
const texts = (blocks: Block[]) => blocks.map((b) => (b.nodes?.[0] as { leaves?: { text: string }[] }).leaves?.[0].text);

function refusal(base: Block[], theirs: Block[], ours: Block[]): string {
  try {
    mergeBlockTree(base, theirs, ours, place);
  } catch (error) {
    expect(error).toBeInstanceOf(Conflict);
    return (error as Conflict).message;
  }
  throw new Error('merged');
}

describe('mergeBlockTree', () => {
  const base = [p('a'), p('b'), p('c')];

  it('keeps what neither side changed, and takes each side its own changes', () => {
    expect(mergeBlockTree(base, base, base, place)).toEqual(base);
    const merged = mergeBlockTree(base, [p('a', 'A by space'), p('b'), p('c')], [p('a'), p('b'), p('c', 'C by change request')], place);
    expect(texts(merged)).toEqual(['A by space', 'b', 'C by change request']);
    // The same change on both sides is no conflict.
    expect(texts(mergeBlockTree(base, [p('a'), p('b', 'B'), p('c')], [p('a'), p('b', 'B'), p('c')], place))).toEqual(['a', 'B', 'c']);
  });

  it('deletes a block one side deleted and the other left alone', () => {
    expect(keys(mergeBlockTree(base, [p('a'), p('c')], base, place))).toEqual(['a', 'c']);
    expect(keys(mergeBlockTree(base, base, [p('a'), p('b')], place))).toEqual(['a', 'b']);
    expect(keys(mergeBlockTree(base, [p('a'), p('c')], [p('a'), p('c')], place))).toEqual(['a', 'c']);
  });

  it('refuses a block deleted on one side and changed on the other, naming it where it was', () => {
    const message = 'Block b of page "Guide" (pag_1) (at nodes[1]) was deleted on one side (change request or space) and changed on the other';
    expect(refusal(base, [p('a'), p('c')], [p('a'), p('b', 'B'), p('c')])).toBe(message);
    expect(refusal(base, [p('a'), p('b', 'B'), p('c')], [p('a'), p('c')])).toBe(message);
  });

  it('refuses the same block changed differently, naming it at its place in the change request', () => {
    expect(refusal(base, [p('a'), p('b', 'space'), p('c')], [p('x'), p('a'), p('b', 'change request'), p('c')])).toBe(
      'Block b of page "Guide" (pag_1) (at nodes[2]) was changed both in the change request and in the space',
    );
    // A key new on both sides with different content: a client reused a key.
    expect(refusal(base, [...base, p('n', 'one')], [...base, p('n', 'two')])).toMatch(/^Block n of .* was changed both/);
  });

  it("places both sides' new blocks where each put them, the space's first", () => {
    const merged = mergeBlockTree(base, [p('a'), p('t1'), p('b'), p('c')], [p('a'), p('o1'), p('b'), p('c'), p('o2')], place);
    expect(keys(merged)).toEqual(['a', 't1', 'o1', 'b', 'c', 'o2']);
    const atStart = mergeBlockTree(base, [p('t0'), ...base], [p('o0'), ...base], place);
    expect(keys(atStart)).toEqual(['t0', 'o0', 'a', 'b', 'c']);
    // Both sides inserting in the same place after deleting different blocks.
    expect(keys(mergeBlockTree(base, [p('a'), p('t'), p('c')], [p('a'), p('b'), p('o')], place))).toEqual(['a', 't', 'o']);
  });

  it('takes a move made on one side, and refuses blocks moved on both', () => {
    expect(keys(mergeBlockTree(base, [p('c'), p('a'), p('b')], [p('a'), p('b', 'B'), p('c')], place))).toEqual(['c', 'a', 'b']);
    expect(refusal(base, [p('b'), p('a'), p('c')], [p('a'), p('c'), p('b')])).toBe(
      'Blocks a, b of page "Guide" (pag_1) (at nodes) were moved both in the change request and in the space',
    );
  });

  it('merges the children of a block changed on both sides, and its fields from the side that changed them', () => {
    const tree = [list('l', [item('i1', p('x')), item('i2', p('y'))])];
    const theirs = [list('l', [item('i1', p('x', 'X')), item('i2', p('y'))], { start: 3 })];
    const ours = [list('l', [item('i1', p('x')), item('i2', p('y', 'Y'))])];
    const [merged] = mergeBlockTree(tree, theirs, ours, place);
    expect(merged.data).toEqual({ start: 3 });
    expect(merged.nodes!.map((i) => texts((i as Block).nodes as Block[])[0])).toEqual(['X', 'Y']);
    const [mergedOurs] = mergeBlockTree(tree, [list('l', [item('i1', p('x', 'X')), item('i2', p('y'))])], [list('l', [item('i1', p('x')), item('i2', p('y', 'Y'))], { start: 5 })], place);
    expect(mergedOurs.data).toEqual({ start: 5 });
  });

  it('refuses fields changed on both sides, and text in a nested block, with the nested path', () => {
    const tree = [p('a'), list('l', [item('i1', p('x')), item('i2', p('y'))])];
    expect(refusal(tree, [p('a'), list('l', [item('i1', p('x', 'X')), item('i2', p('y'))], { start: 2 })], [p('a'), list('l', [item('i1', p('x')), item('i2', p('y', 'Y'))], { start: 3 })])).toBe(
      'Block l of page "Guide" (pag_1) (at nodes[1]) was changed both in the change request and in the space',
    );
    expect(refusal(tree, [p('a'), list('l', [item('i1', p('x')), item('i2', p('y', 'one'))])], [p('a'), list('l', [item('i1', p('x')), item('i2', p('y', 'two'))])])).toBe(
      'Block y of page "Guide" (pag_1) (at nodes[1].nodes[1].nodes[0]) was changed both in the change request and in the space',
    );
  });
});

describe('mergeBlockTree: stretches both sides changed', () => {
  it('keeps a block both sides kept between stretches both changed, with each side\'s new blocks after the one they follow', () => {
    // Theirs replaces a and d (x, t), ours b and e (o, y); c, kept by both, parts the two stretches.
    const base = [p('a'), p('b'), p('c'), p('d'), p('e')];
    const merged = mergeBlockTree(base, [p('x'), p('b'), p('c'), p('t'), p('e')], [p('a'), p('o'), p('c'), p('d'), p('y')], place);
    expect(keys(merged)).toEqual(['x', 'o', 'c', 't', 'y']);
  });

  it('puts a side\'s new block after the kept block it follows, or first when what it followed is deleted', () => {
    // Theirs deletes a and d and adds t after c; ours deletes b and d and adds o after a (deleted by theirs: o opens the stretch).
    const base = [p('a'), p('b'), p('c'), p('d')];
    const merged = mergeBlockTree(base, [p('b'), p('c'), p('t')], [p('a'), p('o'), p('c')], place);
    expect(keys(merged)).toEqual(['o', 'c', 't']);
    const merged2 = mergeBlockTree(base, [p('c'), p('t'), p('d')], [p('a'), p('c'), p('o')], place);
    expect(keys(merged2)).toEqual(['c', 't', 'o']);
  });

  it('keeps several blocks one side added in a row in their order, the space\'s before the change request\'s', () => {
    const base = [p('a'), p('b'), p('c')];
    expect(keys(mergeBlockTree(base, [p('t0'), p('t1'), ...base], [p('o0'), p('o1'), ...base], place))).toEqual(['t0', 't1', 'o0', 'o1', 'a', 'b', 'c']);
  });
});

describe('mergeBlockTree: fields and children of a block both sides changed', () => {
  it('takes fields both sides changed alike, and merges the children', () => {
    const tree = [list('l', [item('i1', p('x')), item('i2', p('y'))])];
    const [merged] = mergeBlockTree(tree, [list('l', [item('i1', p('x', 'X')), item('i2', p('y'))], { start: 3 })], [list('l', [item('i1', p('x')), item('i2', p('y', 'Y'))], { start: 3 })], place);
    expect(merged.data).toEqual({ start: 3 });
    expect(merged.nodes!.map((i) => texts((i as Block).nodes as Block[])[0])).toEqual(['X', 'Y']);
  });

  it('names a block both changed at its index in the change request, also at index 0', () => {
    const base = [p('a'), p('b')];
    expect(refusal(base, [p('x'), p('a', 'space'), p('b')], [p('a', 'change request'), p('b')])).toBe(
      'Block a of page "Guide" (pag_1) (at nodes[0]) was changed both in the change request and in the space',
    );
  });

  it('refuses a block whose children one side turned into text while the other changed them', () => {
    const tree = [item('i', p('x'))];
    const asText = { object: 'block', type: 'list-item', key: 'i', nodes: [{ object: 'text', leaves: [{ text: 'x' }] }] } as Block;
    expect(refusal(tree, [asText], [item('i', p('x', 'X'))])).toBe('Block i of page "Guide" (pag_1) (at nodes[0]) was changed both in the change request and in the space');
  });
});

describe('mergeBlockTree: blocks with fragments (tables, expandables, images)', () => {
  const cell = (id: string, text: string) => ({ object: 'fragment', fragment: id, nodes: [p(`${id}-p`, text)] });
  const table = (cells: Record<string, string>, columns: Record<string, string> = { c0: 'A', c1: 'B' }): Block =>
    ({
      object: 'block',
      type: 'table',
      key: 't',
      isVoid: true,
      data: {
        view: { type: 'grid', columns: Object.keys(columns) },
        definition: Object.fromEntries(Object.entries(columns).map(([id, title]) => [id, { id, title, type: 'text' }])),
        records: { r0: { orderIndex: 'a0', values: Object.fromEntries(Object.keys(columns).map((c) => [c, `r0-${c}`])) } },
      },
      fragments: Object.entries(cells).map(([id, text]) => cell(id, text)),
    }) as unknown as Block;
  const cellText = (b: Block, id: string) => texts((b.fragments!.find((f) => f.fragment === id)!.nodes as Block[]))[0];
  const base = [p('a'), table({ 'r0-c0': 'x', 'r0-c1': 'y' })];

  it('merges different cells of one table changed on each side, and keeps a table without children so', () => {
    const [, merged] = mergeBlockTree(base, [p('a'), table({ 'r0-c0': 'X', 'r0-c1': 'y' })], [p('a'), table({ 'r0-c0': 'x', 'r0-c1': 'Y' })], place);
    expect([cellText(merged, 'r0-c0'), cellText(merged, 'r0-c1'), merged.key]).toEqual(['X', 'Y', 't']);
    expect('nodes' in merged).toBe(false);
    expect(merged.data).toEqual((base[1] as Block).data);
  });

  it('refuses the same cell changed on both sides, naming the cell\'s block by its path in the fragment', () => {
    expect(refusal(base, [p('a'), table({ 'r0-c0': 'space', 'r0-c1': 'y' })], [p('a'), table({ 'r0-c0': 'change request', 'r0-c1': 'y' })])).toBe(
      'Block r0-c0-p of page "Guide" (pag_1) (at nodes[1].fragments[r0-c0].nodes[0]) was changed both in the change request and in the space',
    );
  });

  it('refuses a column changed on both sides, naming the table and the column', () => {
    const theirs = table({ 'r0-c0': 'X', 'r0-c1': 'y' }, { c0: 'Space', c1: 'B' });
    const ours = table({ 'r0-c0': 'x', 'r0-c1': 'Y' }, { c0: 'Change request', c1: 'B' });
    expect(refusal(base, [p('a'), theirs], [p('a'), ours])).toBe(
      'Block t of page "Guide" (pag_1) (at nodes[1]) was changed both in the change request and in the space: column c0',
    );
  });

  it('merges a block given a fragment on one side and new data on the other', () => {
    const image = (data: Record<string, unknown>, caption?: string): Block =>
      ({ object: 'block', type: 'image', key: 'img', isVoid: true, data, ...(caption !== undefined && { fragments: [cell('caption', caption)] }) }) as unknown as Block;
    const [merged] = mergeBlockTree([image({ alt: 'a' })], [image({ alt: 'a' }, 'A caption')], [image({ alt: 'b' })], place);
    expect([merged.data, cellText(merged, 'caption')]).toEqual([{ alt: 'b' }, 'A caption']);
  });

  it('merges the children of a block with fragments as any block\'s, naming a conflict among them by its path', () => {
    const box = (title: string, children: Block[]): Block =>
      ({ object: 'block', type: 'expandable', key: 'e', data: {}, fragments: [cell('expandable-title', title)], nodes: children }) as unknown as Block;
    const start = [box('T', [p('x'), p('y')])];
    const [merged] = mergeBlockTree(start, [box('Title', [p('x'), p('y')])], [box('T', [p('x'), p('y', 'Y')])], place);
    expect([cellText(merged, 'expandable-title'), texts(merged.nodes as Block[])]).toEqual(['Title', ['x', 'Y']]);
    expect(refusal(start, [box('Title', [p('x'), p('y', 'space')])], [box('T', [p('x'), p('y', 'change request')])])).toBe(
      'Block y of page "Guide" (pag_1) (at nodes[0].nodes[1]) was changed both in the change request and in the space',
    );
  });
});
