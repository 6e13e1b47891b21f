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
