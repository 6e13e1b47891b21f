// Order among siblings as fractional-indexing string keys: there is always a key between two others,
// however many moves land in the same gap (no float precision to run out of).
import { generateKeyBetween } from 'fractional-indexing';

/** A key after `last` (or the first key when there is none). */
export function keyAfter(last: string | null | undefined): string {
  return generateKeyBetween(last ?? null, null);
}

/** A key strictly between two keys; either side may be absent. */
export function keyBetween(before: string | null | undefined, after: string | null | undefined): string {
  return generateKeyBetween(before ?? null, after ?? null);
}
