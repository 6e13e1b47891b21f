// Three-way merge of a page's blocks over the node tree, by block key (block-keys.ts). At each level the
// order of the keyed children is merged with node-diff3's diff3 over the key sequences; a child changed on
// one side only takes that side; a child changed on both sides is merged in turn: its own fields (`type`,
// `data`, …) from the side that changed them, and its children the same way, so different items of one
// list, different rows or cells of one table and different children of one container (hint, tabs,
// columns, …) merge. Refused (409, naming the page, the block and its path, e.g. `nodes[2].nodes[0]`):
// the same node changed on both sides differently (a paragraph's text, a cell's text, a block's data),
// a block deleted on one side and changed on the other, blocks moved around the same place on both sides.
import { diff3Merge } from 'node-diff3';
import { Conflict } from '../errors.js';
import { blockSignature, childBlocks, stableJson } from './block-keys.js';
import type { Block } from './markdown-document.js';
import { mergeBlockFields } from './merge-fragments.js';

/** Where the merge is, for conflict messages. */
export interface MergePlace {
  /** The page, as named in messages: `page "Title" (pag_…)`. */
  page: string;
}

/** Keys in order, each block and its signature by key. */
interface Level {
  order: string[];
  byKey: Map<string, Block>;
  sigs: Map<string, string>;
}

function levelOf(blocks: Block[]): Level {
  const order = blocks.map((b) => b.key ?? '');
  return { order, byKey: new Map(blocks.map((b, i) => [order[i], b])), sigs: new Map(blocks.map((b, i) => [order[i], blockSignature(b)])) };
}

const sameList = (a: string[], b: string[]) => a.length === b.length && a.every((x, i) => x === b[i]);

/** The order of the keys: diff3 over the three sequences; a stretch rearranged on both sides is refused. */
function mergeOrder(base: string[], theirs: string[], ours: string[], where: () => string): string[] {
  const out: string[] = [];
  for (const region of diff3Merge(ours, base, theirs)) {
    if (region.ok) out.push(...region.ok);
    else if (region.conflict) out.push(...resolveStretch(region.conflict, where));
  }
  return out;
}

/**
 * A stretch both sides changed. When neither side reordered the blocks it kept, the stretch is the base's
 * blocks kept by both, with each side's new blocks after the block they follow on that side (theirs
 * first). Blocks deleted on one side and changed on the other are found by the caller.
 */
function resolveStretch(c: { a: string[]; o: string[]; b: string[] }, where: () => string): string[] {
  const { a: ours, o: base, b: theirs } = c;
  const keepsOrder = (side: string[]) => {
    const kept = side.filter((k) => base.includes(k));
    return sameList(kept, base.filter((k) => kept.includes(k)));
  };
  if (!keepsOrder(ours) || !keepsOrder(theirs)) {
    throw new Conflict(`Blocks ${base.join(', ')} of ${where()} were moved both in the change request and in the space`);
  }
  const result = base.filter((k) => ours.includes(k) && theirs.includes(k));
  const insertedBy = new Map<string, 'theirs' | 'ours'>();
  for (const [side, keys] of [['theirs', theirs], ['ours', ours]] as const) {
    // Ours goes after what theirs inserted at the same place.
    const skipTheirs = (from: number) => {
      let at = from;
      while (side === 'ours' && insertedBy.get(result[at + 1]) === 'theirs') at++;
      return at;
    };
    let cursor = skipTheirs(-1);
    for (const key of keys) {
      const at = result.indexOf(key);
      if (at >= 0) cursor = skipTheirs(at);
      else if (!base.includes(key)) {
        result.splice(cursor + 1, 0, key);
        insertedBy.set(key, side);
        cursor++;
      }
    }
  }
  return result;
}

/** Whether a block's children are all blocks (so they merge by key), not text or inlines. */
const holdsBlocks = (b: Block) => (b.nodes ?? []).every((n) => n.object === 'block');

/** A block's own fields (all but its key and its children), comparable as one string. */
const fieldsOf = (b: Block) => stableJson({ ...b, key: undefined, nodes: undefined });

/**
 * The blocks `ours` (change request) and `theirs` (space) made of `base`, merged; `path` is where these
 * siblings are (`nodes`, `nodes[2].nodes`).
 */
export function mergeBlockTree(base: Block[], theirs: Block[], ours: Block[], place: MergePlace, path = 'nodes'): Block[] {
  const [b, t, o] = [levelOf(base), levelOf(theirs), levelOf(ours)];
  const where = () => `${place.page} (at ${path})`;
  const order = mergeOrder(b.order, t.order, o.order, where);
  const at = (key: string) => {
    const index = o.order.indexOf(key);
    return `${path}[${index >= 0 ? index : t.order.indexOf(key)}]`;
  };
  const merged: Block[] = [];
  for (const key of order) {
    const [bs, ts, os] = [b.sigs.get(key), t.sigs.get(key), o.sigs.get(key)];
    if (ts === os || bs === os) merged.push((t.byKey.get(key) ?? o.byKey.get(key))!);
    else if (bs === ts) merged.push((o.byKey.get(key) ?? t.byKey.get(key))!);
    else merged.push(mergeBlock(b.byKey.get(key), t.byKey.get(key), o.byKey.get(key), key, place, at(key)));
  }
  // A base block missing from the result was deleted on a side; the other side must have left it unchanged.
  const kept = new Set(order);
  for (const key of b.order) {
    if (kept.has(key)) continue;
    const baseSig = b.sigs.get(key);
    const changed = [t.sigs.get(key), o.sigs.get(key)].some((x) => x !== undefined && x !== baseSig);
    if (changed) throw new Conflict(`Block ${key} of ${place.page} (at ${path}[${b.order.indexOf(key)}]) was deleted on one side (change request or space) and changed on the other`);
  }
  return merged;
}

/** One block changed on both sides: its own fields from the side that changed them, its children merged. */
function mergeBlock(base: Block | undefined, theirs: Block | undefined, ours: Block | undefined, key: string, place: MergePlace, path: string): Block {
  const bothChanged = () => new Conflict(`Block ${key} of ${place.page} (at ${path}) was changed both in the change request and in the space`);
  if (!base || !theirs || !ours) {
    // New on both sides with the same key but different content (a client reused a key), or gone on one.
    throw bothChanged();
  }
  // A block with fragments (a table, an expandable, an image): its fields, records and fragments merged
  // (merge-fragments.ts), its children as any block's.
  if ([base, theirs, ours].some((b) => b.fragments !== undefined)) {
    const conflict = (what: string) => new Conflict(`Block ${key} of ${place.page} (at ${path}) was changed both in the change request and in the space: ${what}`);
    const fields = mergeBlockFields(base, theirs, ours, (b, t, o, name) => mergeBlockTree(b, t, o, place, `${path}.fragments[${name}].nodes`), conflict);
    const children = [base, theirs, ours].every((b) => b.nodes === undefined) ? undefined : mergeBlockTree(childBlocks(base), childBlocks(theirs), childBlocks(ours), place, `${path}.nodes`);
    return { ...fields, key, ...(children !== undefined && { nodes: children }) };
  }
  // A text run or an inline changed on both sides: the same node, changed twice.
  if (![base, theirs, ours].every(holdsBlocks)) throw bothChanged();
  // The fields: from the side that changed them; both changed differently is a conflict.
  const [bf, tf, of] = [fieldsOf(base), fieldsOf(theirs), fieldsOf(ours)];
  let fields: Block;
  if (tf === of || bf === of) fields = theirs;
  else if (bf === tf) fields = ours;
  else throw bothChanged();
  const nodes = mergeBlockTree(childBlocks(base), childBlocks(theirs), childBlocks(ours), place, `${path}.nodes`);
  return { ...fields, key, nodes };
}
