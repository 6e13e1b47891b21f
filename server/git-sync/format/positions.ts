// Order keys of read pages among their siblings. A page that was in the space under the same parent
// keeps its order key when the read order allows it (the longest run of kept pages whose old keys are
// already in order); the others get keys between their neighbours. An import that moved nothing changes
// no key, and one that moved a page changes that page's key only.
import { generateNKeysBetween } from 'fractional-indexing';

/** Indexes of a longest strictly increasing subsequence of `keys` (undefined entries never take part). */
function longestIncreasing(keys: (string | undefined)[]): Set<number> {
  const tails: number[] = [];
  const before = new Array<number>(keys.length).fill(-1);
  keys.forEach((key, i) => {
    if (key === undefined) return;
    let lo = 0;
    let hi = tails.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (keys[tails[mid]]! < key) lo = mid + 1;
      else hi = mid;
    }
    before[i] = lo > 0 ? tails[lo - 1] : -1;
    tails[lo] = i;
  });
  const kept = new Set<number>();
  for (let i = tails.at(-1) ?? -1; i >= 0; i = before[i]) kept.add(i);
  return kept;
}

/** Keys for siblings in their order; `previous[i]` is the key the i-th had under the same parent, if any. */
export function siblingKeys(previous: (string | undefined)[]): string[] {
  const kept = longestIncreasing(previous);
  const out: string[] = new Array(previous.length);
  let last: string | null = null;
  for (let i = 0; i < previous.length; ) {
    if (kept.has(i)) {
      last = out[i] = previous[i]!;
      i++;
      continue;
    }
    // A run of pages without a kept key: keys spread evenly between its neighbours.
    let end = i;
    while (end < previous.length && !kept.has(end)) end++;
    const keys = generateNKeysBetween(last, end < previous.length ? previous[end]! : null, end - i);
    for (const key of keys) out[i++] = key;
    last = keys.at(-1)!;
  }
  return out;
}
