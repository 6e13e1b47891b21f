// The list walk a merge uses to find the pages a side may have changed (server/content/page-diff.ts): on
// random edits of a list of shared objects (replacements, inserts, deletes, moves), everything that differs
// is listed, and on the edits a write makes (one page changed in a long list) little else is.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { listDifference } from '../../server/content/page-diff.js';

interface Item {
  id: number;
}
const items = (n: number, from = 0): Item[] => Array.from({ length: n }, (_, i) => ({ id: from + i }));

type Edit = { kind: 'replace' | 'delete' | 'insert' | 'move'; at: number; to: number };
const edit = fc.record({ kind: fc.constantFrom<Edit['kind']>('replace', 'delete', 'insert', 'move'), at: fc.nat(), to: fc.nat() });

function apply(base: Item[], edits: Edit[]): Item[] {
  const side = [...base];
  let next = 10_000;
  for (const { kind, at, to } of edits) {
    if (side.length === 0 && kind !== 'insert') continue;
    const i = at % Math.max(1, side.length);
    if (kind === 'replace') side[i] = { id: side[i].id };
    else if (kind === 'delete') side.splice(i, 1);
    else if (kind === 'insert') side.splice(at % (side.length + 1), 0, { id: next++ });
    else side.splice(to % side.length, 0, ...side.splice(i, 1));
  }
  return side;
}

describe('listDifference', () => {
  it('lists every item of the side that is not an object of the base, and every base item the side lost', () => {
    fc.assert(
      fc.property(fc.nat({ max: 60 }), fc.array(edit, { maxLength: 12 }), (n, edits) => {
        const base = items(n);
        const side = apply(base, edits);
        const { side: listed, base: indexes } = listDifference(base, side);
        const baseObjects = new Set(base);
        const sideObjects = new Set(side);
        for (const item of side) if (!baseObjects.has(item)) expect(listed).toContain(item);
        for (const [j, item] of base.entries()) if (!sideObjects.has(item)) expect(indexes).toContain(j);
        // Every item is matched or listed exactly once, and matched items are the same objects.
        const unmatchedSide = new Set(listed);
        const unmatchedBase = new Set(indexes.map((j) => base[j]));
        expect(unmatchedSide.size).toBe(listed.length);
        const matchedSide = side.filter((s) => !unmatchedSide.has(s));
        const matchedBase = base.filter((b) => !unmatchedBase.has(b));
        expect(matchedSide.length).toBe(matchedBase.length);
        matchedSide.forEach((item, k) => expect(item).toBe(matchedBase[k]));
        expect(indexes).toEqual([...indexes].sort((a, b) => a - b));
      }),
      { numRuns: 2000 },
    );
  });

  it('lists only the changed neighbourhood when one item of a long list is replaced, inserted or deleted', () => {
    const base = items(5000);
    const replaced = [...base];
    replaced[2500] = { id: 2500 };
    expect(listDifference(base, replaced)).toEqual({ side: [replaced[2500]], base: [2500] });
    const inserted = [...base.slice(0, 100), { id: -1 }, ...base.slice(100)];
    expect(listDifference(base, inserted)).toEqual({ side: [inserted[100]], base: [] });
    const deleted = [...base.slice(0, 4000), ...base.slice(4001)];
    expect(listDifference(base, deleted)).toEqual({ side: [], base: [4000] });
    expect(listDifference(base, base)).toEqual({ side: [], base: [] });
    const twoReplaced = [...base];
    twoReplaced[300] = { id: 300 };
    twoReplaced[301] = { id: 301 };
    expect(listDifference(base, twoReplaced)).toEqual({ side: [twoReplaced[300], twoReplaced[301]], base: [300, 301] });
    const movedFar = [...base.slice(0, 10), ...base.slice(11, 4001), base[10], ...base.slice(4001)];
    expect(listDifference(base, movedFar)).toEqual({ side: [base[10]], base: [10] });
    const twoInserted = [...base.slice(0, 9), { id: -2 }, { id: -3 }, ...base.slice(9)];
    expect(listDifference(base, twoInserted)).toEqual({ side: [twoInserted[9], twoInserted[10]], base: [] });
    const eightInserted = [...base.slice(0, 50), ...items(8, -100), ...base.slice(50)];
    expect(listDifference(base, eightInserted)).toEqual({ side: eightInserted.slice(50, 58), base: [] });
    const eightDeleted = [...base.slice(0, 50), ...base.slice(58)];
    expect(listDifference(base, eightDeleted)).toEqual({ side: [], base: [50, 51, 52, 53, 54, 55, 56, 57] });
    const swapped = [...base.slice(0, 20), base[21], base[20], ...base.slice(22)];
    expect(listDifference(base, swapped)).toEqual({ side: [base[20]], base: [20] });
    const twoDeletedAtTheEnd = base.slice(0, -2);
    expect(listDifference(base, twoDeletedAtTheEnd)).toEqual({ side: [], base: [4998, 4999] });
  });

  it('lists all of both lists when they share no object', () => {
    const base = items(20);
    const side = items(20);
    const { side: listed, base: indexes } = listDifference(base, side);
    expect(listed).toEqual(side);
    expect(indexes).toEqual(base.map((_, j) => j));
  });
});
