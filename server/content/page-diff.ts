// Where one page list may differ from another, found by object identity. Revisions read from the cache share
// the page objects a write did not change (revisions.store.ts `loadContents`), so two revisions of a large
// space are mostly the same objects in the same order: walking both lists in step compares references, and
// what differs is found at the cost of a pointer comparison per page plus a little per change.

/** How far ahead the walk looks for the two lists to meet again after a mismatch (an insert or a delete). */
const LOOKAHEAD = 8;

export interface ListDifference<T> {
  /** The items of `side` that are not matched with the very same item of `base` (edited, new, or moved far). */
  side: T[];
  /** The indexes in `base` of its items not matched on `side` (edited, deleted, or moved far), ascending. */
  base: number[];
}

/**
 * A superset of the differences between `base` and `side`: every item of `side` is either matched, as the
 * same object, with one item of `base`, or listed in `side`; every item of `base` is matched or its index
 * listed. So an item of `side` that is not an object of `base` is always listed, and so is an item of `base`
 * that `side` does not hold. Items equal without being the same objects, or the same objects far apart, are
 * listed too: the caller compares what is listed.
 */
export function listDifference<T>(base: readonly T[], side: readonly T[]): ListDifference<T> {
  const result: ListDifference<T> = { side: [], base: [] };
  let i = 0;
  let j = 0;
  while (i < side.length && j < base.length) {
    if (side[i] === base[j]) {
      i++;
      j++;
      continue;
    }
    const skip = meetAgain(base, side, i, j);
    if (skip.base > 0 || skip.side > 0) {
      for (let k = 0; k < skip.side; k++) result.side.push(side[i + k]);
      for (let k = 0; k < skip.base; k++) result.base.push(j + k);
      i += skip.side;
      j += skip.base;
    } else {
      // Replaced in place (an edited item), or no meeting point near: both listed.
      result.side.push(side[i++]);
      result.base.push(j++);
    }
  }
  while (i < side.length) result.side.push(side[i++]);
  while (j < base.length) result.base.push(j++);
  return result;
}

/**
 * How many items to pass over on each side for the lists to meet again within LOOKAHEAD: items inserted on
 * `side` (`side` > 0) or deleted from it (`base` > 0); none of both when they do not meet so near.
 */
function meetAgain<T>(base: readonly T[], side: readonly T[], i: number, j: number): { base: number; side: number } {
  for (let d = 1; d <= LOOKAHEAD; d++) {
    if (j + d < base.length && side[i] === base[j + d]) return { base: d, side: 0 };
    if (i + d < side.length && side[i + d] === base[j]) return { base: 0, side: d };
  }
  return { base: 0, side: 0 };
}
